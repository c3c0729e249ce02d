/**
 * `RPTA_APP_IPOAPPLY` (upstreams.md §5.8), the datacenter's new-share subscription table, from the
 * model's IPOs (market/ipo.ts). Each value appears only once it would be public at the clock: the
 * row with the announcement, the price the day before subscription, the winning rate with the
 * ballot, the listing date three sessions ahead, first-day prices after the first close.
 * Issue sizes are in 10,000 shares (万股), the subscription cap in shares, the market value
 * needed in 10,000 CNY (万元), as recorded answers in public client tests show them.
 */
import { addDays, beijing } from '../../domain/dates'
import { ipoPlans, type IpoPlan } from '../market/ipo'
import type { MarketModel } from '../market/types'
import type { Predicate, Row } from './datacenter-rows'
import { round } from './format'

const BOARD: Record<string, { marketCode: string; exchange: string; type: string; applyPrefix?: string }> = {
  'sh-main': { marketCode: '069001001001', exchange: '上海证券交易所', type: '沪市主板', applyPrefix: '732' },
  star: { marketCode: '069001001006', exchange: '上海证券交易所', type: '科创板', applyPrefix: '787' },
  'sz-main': { marketCode: '069001002001', exchange: '深圳证券交易所', type: '深市主板' },
  chinext: { marketCode: '069001002002', exchange: '深圳证券交易所', type: '创业板' },
}

const datetime = (date: string) => `${date} 00:00:00`

function ipoRow(p: IpoPlan, today: string): Row {
  const b = BOARD[p.inst.board!]
  const code = p.inst.symbol
  const priced = today >= p.pricingDate
  const balloted = today >= p.ballotDate
  const listed = today > p.listDate
  // Shanghai asks 10,000 CNY of holdings per 1,000 shares subscribed, Shenzhen per 500.
  const perUnit = p.inst.prefix === 'sh' ? 1000 : 500
  return {
    SECURITY_CODE: code,
    SECURITY_NAME: p.inst.name,
    TRADE_MARKET_CODE: b.marketCode,
    APPLY_CODE: b.applyPrefix ? b.applyPrefix + code.slice(3) : code,
    TRADE_MARKET: b.exchange,
    MARKET_TYPE: b.type,
    ORG_TYPE: '公司',
    ISSUE_NUM: round(p.issueShares / 1e4, 2),
    ONLINE_ISSUE_NUM: round(p.onlineShares / 1e4, 2),
    OFFLINE_PLACING_NUM: round((p.issueShares - p.onlineShares) / 1e4, 2),
    TOP_APPLY_MARKETCAP: round(p.applyLimit / perUnit, 2),
    ONLINE_APPLY_UPPER: p.applyLimit,
    ISSUE_PRICE: priced ? p.issuePrice : null,
    CLOSE_PRICE: listed ? p.firstClose : null,
    APPLY_DATE: datetime(p.applyDate),
    BALLOT_NUM_DATE: datetime(p.ballotDate),
    BALLOT_PAY_DATE: datetime(p.ballotDate),
    LISTING_DATE: today >= p.listingNoticeDate ? datetime(p.listDate) : null,
    AFTER_ISSUE_PE: priced ? p.issuePe : null,
    ONLINE_ISSUE_LWR: balloted ? p.winningRate : null,
    OPEN_PRICE: listed ? p.firstOpen : null,
    LD_OPEN_PREMIUM: listed ? round((p.firstOpen / p.issuePrice - 1) * 100, 4) : null,
    LD_CLOSE_CHANGE: listed ? round((p.firstClose / p.issuePrice - 1) * 100, 4) : null,
  }
}

/** Rows of IPOs public at `now`; an `APPLY_DATE>=` predicate bounds the scan (else the last year). */
export function ipoApplyRows(market: MarketModel, now: number, filter: readonly Predicate[]): Row[] {
  const today = beijing(now).date
  const from = filter.find((p) => p.column === 'APPLY_DATE' && (p.op === '>=' || p.op === '>'))?.value.slice(0, 10) ?? addDays(today, -365)
  return ipoPlans(market, from, today).map((p) => ipoRow(p, today))
}
