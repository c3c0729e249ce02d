import { fetchBoardDays } from '../channels/eastmoney/billboard'
import { fetchBlockTrades, type BlockTradeQuery } from '../channels/eastmoney/block-trades'
import { fetchMargin } from '../channels/eastmoney/margin'
import { askWith } from './ask'

export type { BoardDay } from '../channels/eastmoney/billboard'
export type { BlockTrade, BlockTradeQuery } from '../channels/eastmoney/block-trades'
export type { MarginDay } from '../channels/eastmoney/margin'

// What the exchanges publish of a session's trading after the close (/v1/fund, /v1/block-trade): Eastmoney's datacenter.

/** One stock's dragon-tiger board appearances since `from`, with the seats. */
export const boardDays = (code: string, from: string) => askWith((ctx) => fetchBoardDays(ctx, code, from))

/** Block trades of one stock over days, or of the whole market on a day. */
export const blockTrades = (query: BlockTradeQuery) => askWith((ctx) => fetchBlockTrades(ctx, query))

/** One stock's margin trading per session since `from`, newest first. */
export const marginDays = (code: string, from: string) => askWith((ctx) => fetchMargin(ctx, code, from))
