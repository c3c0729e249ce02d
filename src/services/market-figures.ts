import { fetchIndustryBoards } from '../channels/eastmoney/board-list'
import { ChannelError } from '../channels/errors'
import { fetchMarketMargin } from '../channels/eastmoney/margin-market'
import { fetchMarketValuation } from '../channels/eastmoney/market-valuation'
import { fetchUpDown } from '../channels/eastmoney/updown'
import { askWith } from './ask'

export type { BoardRow } from '../channels/eastmoney/board-list'
export type { UpDownCounts } from '../channels/eastmoney/updown'

// The whole market's figures of /v1/market-overview that Eastmoney alone publishes.

/** The up/down distribution of the session `date`. */
export const upDownCounts = (date: string) => askWith((ctx) => fetchUpDown(ctx, date))

/** Every industry board with its change today and over five days. */
export const industryBoards = () => askWith((ctx) => fetchIndustryBoards(ctx))

/** Every A-share stock's valuation (the whole-market list). */
export const marketValuation = () => askWith((ctx) => fetchMarketValuation(ctx))

/** The market's margin balances per session since `from`, newest first; none is an `empty` failure. */
export const marketMargin = (from: string) =>
  askWith(async (ctx) => {
    const days = await fetchMarketMargin(ctx, from)
    if (days.length === 0) throw new ChannelError('empty', 'eastmoney', `no market margin figures since ${from}`)
    return days
  })
