/**
 * Who must disclose an interest in an HK stock (主要股东 ≥ 5% and 董事, the SFO Part XV notices
 * Eastmoney's HK F10 lists as 主要股东), per half-year report: two to five holders, largest
 * first, each holding a share of the stock's total shares (so the shares and ratios agree with
 * its share count), the change against the report before. Deterministic per stock and period. Pure.
 */
import { addDays } from '../../domain/dates'
import { hashString, uniform } from './random'
import { reportedPeriods } from './shareholders'
import type { EmuInstrument } from './types'

/** One disclosed interest in one period. */
export interface HkHolding {
  name: string
  /** 主要股东 (substantial shareholder) or 董事 (director). */
  equityType: '主要股东' | '董事'
  /** Capacity as the notice words it. */
  identity: string
  /** Shares of the interest (long position). */
  shares: number
  /** Percent of total shares, 3 decimals. */
  ratio: number
  /** Shares held directly (the rest through controlled corporations). */
  direct: number
  /** Change of the holding since the report before, percent (null for a new holder). */
  changePct: number | null
}

const SALT_HK = 0x4b11
const HALF_ENDS = ['06-30', '12-31'] as const
/** Days from a period end to its report: interim results by the end of August, annual ones by late March. */
const REPORT_LAG: Record<string, number> = { '06-30': 60, '12-31': 85 }

/** The date a period's holders are published. */
export const hkHolderNoticeDate = (end: string) => addDays(end, REPORT_LAG[end.slice(5)])

/** Period ends (half years) whose report is out by `today`, newest first, from listing on. */
export const hkHolderPeriods = (inst: EmuInstrument, today: string): string[] => reportedPeriods(inst, today, HALF_ENDS, hkHolderNoticeDate)

const INSTITUTIONS = ['Prosus N.V.', 'JPMorgan Chase & Co.', 'BlackRock, Inc.', 'The Capital Group Companies, Inc.', 'Citigroup Inc.', '中央汇金投资有限责任公司', 'Temasek Holdings (Private) Limited']
const DIRECTORS = ['陈志明', '黄国华', '林家豪', '周美玲']
const IDENTITY = { corp: '受控法团权益', own: '实益拥有人', fund: '投资经理' }

const halfIndex = (end: string) => Number(end.slice(0, 4)) * 2 + (end.slice(5) === '12-31' ? 1 : 0)
const halfBefore = (end: string) => {
  const i = halfIndex(end) - 1
  return `${Math.floor(i / 2)}-${HALF_ENDS[i % 2]}`
}

interface Raw {
  name: string
  equityType: HkHolding['equityType']
  identity: string
  fraction: number
  directShare: number
}

function raw(inst: EmuInstrument, end: string): Raw[] {
  const seed = hashString(inst.code) ^ SALT_HK
  const p = halfIndex(end)
  const list: Raw[] = []
  // A controlling holder (a parent group or a large investor), steady from period to period.
  list.push({ name: `${inst.name.replace(/[-\s].*$/, '')}控股集团有限公司`, equityType: '主要股东', identity: IDENTITY.corp, fraction: 0.08 + 0.3 * uniform(seed, 1), directShare: 0 })
  // One to three institutions above the 5% line; one may drop below and out between reports.
  const n = 1 + Math.floor(3 * uniform(seed, 2))
  const start = Math.floor(uniform(seed, 3) * INSTITUTIONS.length)
  for (let k = 0; k < n; k++) {
    const f = 0.05 + 0.04 * uniform(seed, 4, k) * (0.8 + 0.4 * uniform(seed, 5, k, p))
    if (k === n - 1 && uniform(seed, 6, p) < 0.25) continue
    list.push({ name: INSTITUTIONS[(start + k) % INSTITUTIONS.length], equityType: '主要股东', identity: IDENTITY.fund, fraction: f, directShare: 1 })
  }
  // A director with a small personal stake.
  list.push({ name: DIRECTORS[Math.floor(uniform(seed, 7) * DIRECTORS.length)], equityType: '董事', identity: IDENTITY.own, fraction: 0.001 + 0.02 * uniform(seed, 8) * (0.9 + 0.2 * uniform(seed, 9, p)), directShare: 1 })
  return list.sort((a, b) => b.fraction - a.fraction)
}

/** The disclosed holders of an HK stock at the period end `end`, largest first. */
export function hkHolders(inst: EmuInstrument, end: string): HkHolding[] {
  const total = inst.totalShares ?? 0
  const before = new Map(raw(inst, halfBefore(end)).map((h) => [h.name, Math.round(h.fraction * total)]))
  return raw(inst, end).map((h) => {
    const shares = Math.round(h.fraction * total)
    const was = before.get(h.name)
    return {
      name: h.name,
      equityType: h.equityType,
      identity: h.identity,
      shares,
      ratio: total > 0 ? Math.round((shares / total) * 1e5) / 1e3 : 0,
      direct: Math.round(shares * h.directShare),
      changePct: was ? Math.round(((shares - was) / was) * 1e4) / 100 : null,
    }
  })
}
