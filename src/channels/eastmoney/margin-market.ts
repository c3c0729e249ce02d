/**
 * The whole market's margin totals per session (两融账户统计) from the datacenter report
 * `RPTA_WEB_MARGIN_DAILYTRADE` (upstreams.md §5.6). The report prints amounts in 100 million CNY
 * (亿元); we convert to CNY. Rows are checked: the total balance is financing + lending, each
 * session once.
 */
import { malformed } from '../errors'
import type { ChannelContext } from '../types'
import { num } from '../validate'
import type { JsonObject } from './envelope'
import { dateOfRow, fetchReport } from './report-rows'
import { CHANNEL } from './wire'

const MARKET_MARGIN_REPORT = 'RPTA_WEB_MARGIN_DAILYTRADE'

/** CNY per unit of the report's amounts. */
const YI = 1e8
/** Rounding slack when checking sums of 8-decimal 亿元 figures, in 亿元. */
const SLACK = 0.0001

export interface MarketMarginDay {
  date: string
  /** 融资余额, CNY. */
  financingBalance: number
  /** 融券余额, CNY. */
  lendingBalance: number
  /** 融资融券余额 = financing + lending, CNY. */
  totalBalance: number
  /** 融资买入额, CNY. */
  financingBuy: number
  /** 融券卖出额, CNY. */
  lendingSell: number
}

export function toMarketMarginDay(row: JsonObject): MarketMarginDay {
  const date = dateOfRow(row, 'STATISTICS_DATE')
  const n = (c: string) => num(CHANNEL, row[c], `${c} on ${date}`)
  const fin = n('FIN_BALANCE')
  const loan = n('LOAN_BALANCE')
  const total = n('MARGIN_BALANCE')
  if (fin < 0 || loan < 0) throw malformed(CHANNEL, `market margin ${date}: negative balance`)
  if (Math.abs(total - (fin + loan)) > SLACK) throw malformed(CHANNEL, `market margin ${date}: MARGIN_BALANCE ${total} is not FIN_BALANCE + LOAN_BALANCE`)
  const cny = (x: number) => Math.round(x * YI * 100) / 100
  return { date, financingBalance: cny(fin), lendingBalance: cny(loan), totalBalance: cny(total), financingBuy: cny(n('FIN_BUY_AMT')), lendingSell: cny(n('LOAN_SELL_AMT')) }
}

/** Sessions on or after `from` (`YYYY-MM-DD`), newest first; [] when none is published. */
export async function fetchMarketMargin(ctx: ChannelContext, from: string): Promise<MarketMarginDay[]> {
  const rows = await fetchReport(ctx, { report: MARKET_MARGIN_REPORT, filter: `(STATISTICS_DATE>='${from}')`, sortColumns: 'STATISTICS_DATE', sortTypes: '-1' })
  const days = rows.map(toMarketMarginDay).sort((a, b) => (a.date < b.date ? 1 : -1))
  for (let i = 1; i < days.length; i++) if (days[i].date === days[i - 1].date) throw malformed(CHANNEL, `market margin: two rows for ${days[i].date}`)
  return days
}
