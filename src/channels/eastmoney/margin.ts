/**
 * Margin trading of one stock per day from the datacenter report `RPTA_WEB_RZRQ_GGMX`
 * (upstreams.md §5.6). Financing in CNY, securities lending in shares and CNY. Rows are checked:
 * net financing is buy − repay, the total balance is financing + lending.
 */
import { malformed, unsupported } from '../errors'
import type { ChannelContext } from '../types'
import { num, optNum } from '../validate'
import type { JsonObject } from './envelope'
import { bareCode, codeOfRow, dateOfRow, fetchReport } from './report-rows'
import { CHANNEL } from './wire'

const MARGIN_REPORT = 'RPTA_WEB_RZRQ_GGMX'

export interface MarginDay {
  date: string
  /** 融资余额, CNY. */
  financingBalance: number
  financingBuy: number
  financingRepay: number
  financingNetBuy: number
  /** 融券余额 CNY, 融券余量 shares, sold and repaid shares. */
  lendingBalance: number
  lentShares: number | null
  lentSold: number | null
  lentRepaid: number | null
  /** 融资融券余额: financing + lending, CNY. */
  totalBalance: number
  close: number | null
}

const A_SHARE = /^(sh|sz|bj)\d{6}$/

function marginFilter(code: string, from: string): string {
  if (!A_SHARE.test(code)) throw unsupported(CHANNEL, `margin trading is for A-share stocks, not ${code}`)
  return `(SCODE="${bareCode(code)}")(DATE>='${from}')`
}

export function toMarginDay(row: JsonObject, code: string): MarginDay {
  if (codeOfRow(row, 'SCODE') !== code) throw malformed(CHANNEL, `margin row of ${JSON.stringify(row.SCODE)} does not answer ${code}`)
  const date = dateOfRow(row, 'DATE')
  const at = (c: string) => `${c} of ${code} on ${date}`
  const n = (c: string) => num(CHANNEL, row[c], at(c))
  const d: MarginDay = {
    date,
    financingBalance: n('RZYE'),
    financingBuy: n('RZMRE'),
    financingRepay: n('RZCHE'),
    financingNetBuy: n('RZJME'),
    lendingBalance: n('RQYE'),
    lentShares: optNum(CHANNEL, row.RQYL, at('RQYL')),
    lentSold: optNum(CHANNEL, row.RQMCL, at('RQMCL')),
    lentRepaid: optNum(CHANNEL, row.RQCHL, at('RQCHL')),
    totalBalance: n('RZRQYE'),
    close: optNum(CHANNEL, row.SPJ, at('SPJ')),
  }
  if (Math.abs(d.financingNetBuy - (d.financingBuy - d.financingRepay)) > 2) throw malformed(CHANNEL, `margin ${code} ${date}: net buy is not buy − repay`)
  if (Math.abs(d.totalBalance - (d.financingBalance + d.lendingBalance)) > 2) throw malformed(CHANNEL, `margin ${code} ${date}: total balance is not financing + lending`)
  if (d.financingBalance < 0 || d.lendingBalance < 0) throw malformed(CHANNEL, `margin ${code} ${date}: negative balance`)
  return d
}

/** Margin days of a stock on or after `from`, newest first; [] when it is not a margin target. */
export async function fetchMargin(ctx: ChannelContext, code: string, from: string): Promise<MarginDay[]> {
  const rows = await fetchReport(ctx, { report: MARGIN_REPORT, filter: marginFilter(code, from), sortColumns: 'DATE', sortTypes: '-1' })
  const days = rows.map((r) => toMarginDay(r, code)).sort((a, b) => (a.date < b.date ? 1 : -1))
  for (let i = 1; i < days.length; i++) if (days[i].date === days[i - 1].date) throw malformed(CHANNEL, `margin ${code}: two rows for ${days[i].date}`)
  return days
}
