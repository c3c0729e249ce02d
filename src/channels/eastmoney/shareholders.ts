/**
 * A stock's shareholders from three datacenter reports (upstreams.md §5.3): `RPT_DMSK_HOLDERS`
 * (top ten holders), `RPT_F10_EH_FREEHOLDERS` (top ten float holders) and `RPT_HOLDERNUM_DET`
 * (holder counts per period). One page of each, newest period first.
 */
import type { Instrument } from '../../domain/instrument'
import { isValidDate } from '../../domain/dates'
import { malformed, unsupported } from '../errors'
import { fetchText } from '../http'
import type { ChannelContext } from '../types'
import { optNum } from '../validate'
import { datacenterUrl, readDatacenter } from './datacenter'
import type { JsonObject } from './envelope'
import { CHANNEL } from './wire'

export const HOLDER_REPORTS = { top: 'RPT_DMSK_HOLDERS', float: 'RPT_F10_EH_FREEHOLDERS', count: 'RPT_HOLDERNUM_DET' } as const
/** Periods of holder counts asked for: three years of quarters. */
export const HOLDER_COUNT_PERIODS = 12

/** One holder of the latest period. */
export interface Holder {
  endDate: string
  rank: number
  name: string
  type: string | null
  sharesType: string | null
  shares: number
  /** Percent of total shares (top ten) or of float shares (float top ten). */
  ratio: number
  /** Shares more or fewer than the previous period; null for a holder new to the list. */
  change: number | null
  changePct: number | null
  changeText: string | null
  noticeDate: string | null
}

export interface HolderCountRow {
  endDate: string
  holders: number
  avgShares: number | null
  change: number | null
  changePct: number | null
  avgMarketCap: number | null
  totalMarketCap: number | null
  totalShares: number | null
  intervalChangePct: number | null
  noticeDate: string | null
}

export interface Shareholders {
  top: Holder[]
  float: Holder[]
  counts: HolderCountRow[]
}

const SUFFIX: Record<string, string> = { sh: 'SH', sz: 'SZ', bj: 'BJ' }
const DATETIME = /^(\d{4}-\d{2}-\d{2})( \d{2}:\d{2}:\d{2})?$/

function symbolOf(inst: Instrument): string {
  if (inst.kind !== 'stock' || !SUFFIX[inst.prefix]) throw unsupported(CHANNEL, `shareholder reports are for sh/sz/bj stocks, not ${inst.code}`)
  return inst.symbol
}

/** The URL of the first page of one report for one stock. */
export function holderUrl(report: keyof typeof HOLDER_REPORTS, inst: Instrument): string {
  const filter = `(SECURITY_CODE="${symbolOf(inst)}")`
  if (report === 'count') return datacenterUrl({ report: HOLDER_REPORTS.count, filter, sortColumns: 'END_DATE', sortTypes: '-1', page: 1, pageSize: HOLDER_COUNT_PERIODS })
  const rank = report === 'top' ? 'RANK' : 'HOLDER_RANK'
  return datacenterUrl({ report: HOLDER_REPORTS[report], filter, sortColumns: `END_DATE,${rank}`, sortTypes: '-1,1', page: 1, pageSize: 10 })
}

/** A `YYYY-MM-DD[ HH:MM:SS]` cell as its date; null when empty; anything else is `malformed`. */
export function dateOf(row: JsonObject, col: string, where: string): string | null {
  const raw = row[col]
  if (raw === null || raw === undefined || raw === '') return null
  const m = typeof raw === 'string' ? DATETIME.exec(raw) : null
  if (!m || !isValidDate(m[1])) throw malformed(CHANNEL, `${col} of ${where} is not a date: ${JSON.stringify(raw)}`)
  return m[1]
}

function checkStock(row: JsonObject, inst: Instrument, report: string) {
  if (String(row.SECURITY_CODE) !== inst.symbol) throw malformed(CHANNEL, `${report} row of ${JSON.stringify(row.SECURITY_CODE)} answers a query for ${inst.code}`)
  const secu = row.SECUCODE
  if (secu !== undefined && secu !== null && secu !== `${inst.symbol}.${SUFFIX[inst.prefix]}`) throw malformed(CHANNEL, `${report} row ${JSON.stringify(secu)} is not ${inst.code}`)
}

/** A non-empty string cell, else null. */
export const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null)
/** A change column may carry a number or a word (`新进`, `不变`); only a number is a number. */
const numberOrNull = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : null)
/** A change cell that is a word, not a number (`新进`, `不变`); else null. */
const wordOf = (v: unknown) => (typeof v === 'string' && v.trim() !== '' && numberOrNull(v) === null ? v : null)

/**
 * The holders of the newest period on the page, by rank. Rows of another stock, ranks not
 * 1, 2, 3 … in order, holdings growing with rank, or ratios adding up past 100% are `malformed`.
 */
export function parseHolders(rows: JsonObject[], inst: Instrument, report: 'top' | 'float'): Holder[] {
  const name = HOLDER_REPORTS[report]
  const rankCol = report === 'top' ? 'RANK' : 'HOLDER_RANK'
  const ratioCol = report === 'top' ? 'HOLD_RATIO' : 'FREE_HOLDNUM_RATIO'
  if (rows.length === 0) return []
  const latest = dateOf(rows[0], 'END_DATE', `${name} ${inst.code}`)
  if (!latest) throw malformed(CHANNEL, `${name} row of ${inst.code} has no END_DATE`)
  const out: Holder[] = []
  for (const row of rows) {
    checkStock(row, inst, name)
    const end = dateOf(row, 'END_DATE', `${name} ${inst.code}`)
    if (end !== latest) {
      if (end === null || end > latest) throw malformed(CHANNEL, `${name} rows of ${inst.code} are not newest period first`)
      break // the page reached the period before
    }
    const where = `${name} ${inst.code} ${end} rank ${String(row[rankCol])}`
    const rank = optNum(CHANNEL, row[rankCol], `${rankCol} of ${where}`)
    const shares = optNum(CHANNEL, row.HOLD_NUM, `HOLD_NUM of ${where}`)
    const ratio = optNum(CHANNEL, row[ratioCol], `${ratioCol} of ${where}`)
    const holder = text(row.HOLDER_NAME)
    if (rank !== out.length + 1) throw malformed(CHANNEL, `${name} ranks of ${inst.code} ${end} are not 1, 2, 3 …: ${rank} after ${out.length}`)
    if (!holder || shares === null || shares < 0 || ratio === null || ratio < 0 || ratio > 100) throw malformed(CHANNEL, `${where}: holder, shares or ratio missing or out of range`)
    if (out.length && shares > out[out.length - 1].shares) throw malformed(CHANNEL, `${where} holds more than the rank above`)
    const change = numberOrNull(row.HOLD_NUM_CHANGE)
    out.push({
      endDate: end,
      rank,
      name: holder,
      type: text(row.HOLDER_NEWTYPE) ?? text(row.HOLDER_TYPE),
      sharesType: text(row.SHARES_TYPE),
      shares,
      ratio,
      change,
      // Computed from the report's own numbers: the column sets of both reports have no change
      // percent of the holding itself (RPT_DMSK_HOLDERS' 34 columns, docs/upstreams.md; the float
      // report's capture), only ratios of other things (HOLD_RATIO_CHANGE, HOLDNUM_CHANGE_RATIO).
      changePct: changePctOf(shares, change),
      // The F10 column set of the float report words the change as HOLD_CHANGE (`不变`, `新进`; test/fixtures/eastmoney/freeholders-002811-2025q1.json).
      changeText: text(row.HOLDNUM_CHANGE_NAME) ?? wordOf(row.HOLD_NUM_CHANGE) ?? wordOf(row.HOLD_CHANGE),
      noticeDate: dateOf(row, 'NOTICE_DATE', where) ?? dateOf(row, 'UPDATE_DATE', where),
    })
  }
  const sum = out.reduce((s, h) => s + h.ratio, 0)
  if (sum > 100.01) throw malformed(CHANNEL, `${name} ratios of ${inst.code} ${latest} add up to ${sum}%`)
  return out
}

/**
 * Holder counts, newest first. Rows of another stock, periods not strictly descending, counts not
 * positive integers, or an average holding that is not total shares / holders (±1%) are `malformed`.
 */
export function parseHolderCounts(rows: JsonObject[], inst: Instrument): HolderCountRow[] {
  const name = HOLDER_REPORTS.count
  let prev = ''
  return rows.map((row) => {
    checkStock(row, inst, name)
    const end = dateOf(row, 'END_DATE', `${name} ${inst.code}`)
    if (!end) throw malformed(CHANNEL, `${name} row of ${inst.code} has no END_DATE`)
    if (prev && end >= prev) throw malformed(CHANNEL, `${name} periods of ${inst.code} are not strictly newest first at ${end}`)
    prev = end
    const where = `${name} ${inst.code} ${end}`
    const n = (col: string) => optNum(CHANNEL, row[col], `${col} of ${where}`)
    const holders = n('HOLDER_NUM')
    if (holders === null || !Number.isInteger(holders) || holders <= 0) throw malformed(CHANNEL, `HOLDER_NUM of ${where} is not a positive integer`)
    const avgShares = n('AVG_HOLD_NUM')
    const totalShares = n('TOTAL_A_SHARES')
    if (avgShares !== null && totalShares !== null && Math.abs(avgShares * holders - totalShares) > totalShares * 0.01) {
      throw malformed(CHANNEL, `AVG_HOLD_NUM ${avgShares} of ${where} is not TOTAL_A_SHARES ${totalShares} / HOLDER_NUM ${holders}`)
    }
    const pre = n('PRE_HOLDER_NUM')
    const change = n('HOLDER_NUM_CHANGE')
    if (pre !== null && change !== null && pre + change !== holders) throw malformed(CHANNEL, `${where}: PRE_HOLDER_NUM + HOLDER_NUM_CHANGE ≠ HOLDER_NUM`)
    return {
      endDate: end,
      holders,
      avgShares,
      change,
      changePct: n('HOLDER_NUM_RATIO'),
      avgMarketCap: n('AVG_MARKET_CAP'),
      totalMarketCap: n('TOTAL_MARKET_CAP'),
      totalShares,
      intervalChangePct: n('INTERVAL_CHRATE'),
      noticeDate: dateOf(row, 'HOLD_NOTICE_DATE', where),
    }
  })
}

/**
 * The latest top ten and float top ten, and the holder counts of recent periods. A float holder
 * holding more float shares than the same holder's whole holding in the same period is `malformed`.
 */
export async function fetchShareholders(ctx: ChannelContext, inst: Instrument): Promise<Shareholders> {
  const page = async (report: keyof typeof HOLDER_REPORTS) => readDatacenter(await fetchText(ctx, CHANNEL, holderUrl(report, inst)))?.data ?? []
  const [top, float, counts] = await Promise.all([page('top'), page('float'), page('count')])
  const out = { top: parseHolders(top, inst, 'top'), float: parseHolders(float, inst, 'float'), counts: parseHolderCounts(counts, inst) }
  const whole = new Map(out.top.map((h) => [`${h.endDate}|${h.name}`, h.shares]))
  for (const h of out.float) {
    const all = whole.get(`${h.endDate}|${h.name}`)
    if (all !== undefined && h.shares > all) throw malformed(CHANNEL, `${inst.code} ${h.endDate}: ${h.name} holds ${h.shares} float shares but ${all} shares in all`)
  }
  return out
}

/** A holding's change in percent of the holding before it, 4 decimals; null when new or unknown. */
function changePctOf(shares: number, change: number | null): number | null {
  const before = change === null ? 0 : shares - change
  return before > 0 ? Math.round((change! / before) * 1e6) / 1e4 : null
}
