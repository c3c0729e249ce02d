/**
 * An HK stock's disclosed major shareholders (主要股东 and 董事 interests under the SFO) from
 * Eastmoney's HK F10 report `RPT_HKF10_EQUITYCHG_HOLDER` on the F10 flavour of the datacenter
 * (`datacenter.eastmoney.com/securities/api/data/v1/get`, the same envelope as datacenter-web).
 * Request columns and parameters as akshare's `stock_hk_gdfx_top_10_em` sends them
 * (`source=F10&client=PC`, `(SECUCODE="00700.HK")`, several other public projects send the same); the
 * value shapes (REPORT_DATE `YYYY-MM-DD 00:00:00`, TOTAL_SHARES in shares, TOTAL_SHARES_RATIO in
 * percent, EQUITY_TYPE such as 董事) as a public project's mock of a captured answer shows them.
 * We ask for the newest reports first instead of akshare's one fixed REPORT_DATE and keep the
 * newest period's rows.
 */
import type { Instrument } from '../../domain/instrument'
import { malformed, unsupported } from '../errors'
import { fetchText } from '../http'
import type { ChannelContext } from '../types'
import { optNum } from '../validate'
import { readDatacenter } from './datacenter'
import type { JsonObject } from './envelope'
import { dateOf, text } from './shareholders'
import { CHANNEL } from './wire'

const HK_HOLDER_REPORT = 'RPT_HKF10_EQUITYCHG_HOLDER'
const F10_DATACENTER_URL = 'https://datacenter.eastmoney.com/securities/api/data/v1/get'
const COLUMNS = 'SECURITY_CODE,SECUCODE,NOTICE_DATE,REPORT_DATE,HOLDER_NAME,TOTAL_SHARES,TOTAL_SHARES_RATIO,DIRECT_SHARES,SHARES_CHG_RATIO,SHARES_TYPE,EQUITY_TYPE,HOLD_IDENTITY'
/** Rows asked: several periods of a handful of holders each, so the newest period is whole. */
const PAGE_SIZE = 50

/** One disclosed interest of the newest reported period. */
export interface HkHolder {
  endDate: string
  name: string
  /** 主要股东 / 董事 … as the upstream words it. */
  equityType: string | null
  /** Capacity (实益拥有人, 受控法团权益, 投资经理 …). */
  identity: string | null
  sharesType: string | null
  shares: number
  /** Percent of the issued shares. */
  ratio: number
  directShares: number | null
  /** Change of the holding since the report before, percent; null when the upstream has none. */
  changePct: number | null
  noticeDate: string | null
}

/** The first page of the report for one HK stock, newest period first, largest holding first. */
export function hkHolderUrl(inst: Instrument): string {
  if (inst.kind !== 'hk') throw unsupported(CHANNEL, `${HK_HOLDER_REPORT} is for HK stocks, not ${inst.code}`)
  const filter = encodeURIComponent(`(SECUCODE="${inst.symbol}.HK")`)
  return (
    `${F10_DATACENTER_URL}?reportName=${HK_HOLDER_REPORT}&columns=${COLUMNS}&quoteColumns=&filter=${filter}` +
    `&pageNumber=1&pageSize=${PAGE_SIZE}&sortTypes=-1,-1&sortColumns=REPORT_DATE,TOTAL_SHARES&source=F10&client=PC`
  )
}


/**
 * The holders of the newest period on the page, largest first. A row of another stock, periods
 * not newest first, a holding that is no share count, a ratio outside 0..100, or direct shares
 * above the holding are `malformed`. The ratios are not summed: one block held through a chain of
 * controlled corporations is disclosed by each of them.
 */
export function parseHkHolders(rows: JsonObject[], inst: Instrument): HkHolder[] {
  if (rows.length === 0) return []
  const latest = dateOf(rows[0], 'REPORT_DATE', `${HK_HOLDER_REPORT} ${inst.code}`)
  if (!latest) throw malformed(CHANNEL, `${HK_HOLDER_REPORT} row of ${inst.code} has no REPORT_DATE`)
  const out: HkHolder[] = []
  for (const row of rows) {
    if (String(row.SECURITY_CODE) !== inst.symbol || (row.SECUCODE != null && row.SECUCODE !== `${inst.symbol}.HK`)) {
      throw malformed(CHANNEL, `${HK_HOLDER_REPORT} row of ${JSON.stringify(row.SECUCODE ?? row.SECURITY_CODE)} answers a query for ${inst.code}`)
    }
    const where = `${HK_HOLDER_REPORT} ${inst.code} ${String(row.REPORT_DATE)} ${String(row.HOLDER_NAME)}`
    const end = dateOf(row, 'REPORT_DATE', where)
    if (end !== latest) {
      if (end === null || end > latest) throw malformed(CHANNEL, `${HK_HOLDER_REPORT} rows of ${inst.code} are not newest period first`)
      break // the page reached the period before
    }
    const name = text(row.HOLDER_NAME)
    const shares = optNum(CHANNEL, row.TOTAL_SHARES, `TOTAL_SHARES of ${where}`)
    const ratio = optNum(CHANNEL, row.TOTAL_SHARES_RATIO, `TOTAL_SHARES_RATIO of ${where}`)
    const direct = optNum(CHANNEL, row.DIRECT_SHARES, `DIRECT_SHARES of ${where}`)
    if (!name || shares === null || !Number.isInteger(shares) || shares < 0 || ratio === null || ratio < 0 || ratio > 100) {
      throw malformed(CHANNEL, `${where}: holder, shares or ratio missing or out of range`)
    }
    if (direct !== null && (direct < 0 || direct > shares)) throw malformed(CHANNEL, `${where}: ${direct} direct shares of a ${shares}-share holding`)
    out.push({
      endDate: end,
      name,
      equityType: text(row.EQUITY_TYPE),
      identity: text(row.HOLD_IDENTITY),
      sharesType: text(row.SHARES_TYPE),
      shares,
      ratio,
      directShares: direct,
      changePct: optNum(CHANNEL, row.SHARES_CHG_RATIO, `SHARES_CHG_RATIO of ${where}`),
      noticeDate: dateOf(row, 'NOTICE_DATE', where),
    })
  }
  return out
}

/** The newest period's disclosed holders of an HK stock ([] when the upstream has none). */
export async function fetchHkHolders(ctx: ChannelContext, inst: Instrument): Promise<HkHolder[]> {
  return parseHkHolders(readDatacenter(await fetchText(ctx, CHANNEL, hkHolderUrl(inst)))?.data ?? [], inst)
}
