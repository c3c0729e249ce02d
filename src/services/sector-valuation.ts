import { fetchBoardDividendYield, fetchBoardHistory, fetchStockBoard, findBoard } from '../channels/eastmoney/sector-valuation'
import { CHANNEL } from '../channels/eastmoney/wire'
import { empty } from '../channels/errors'
import type { Instrument } from '../domain/instrument'
import { askWith } from './ask'

export type { BoardValuationDay, ValuationBoard } from '../channels/eastmoney/sector-valuation'

// An industry board's valuation history (/v1/sector-valuation): Eastmoney's industry valuation report.

/**
 * The board `inst` is valued under: a stock's board named by its BK number (from the stock's own
 * rows since `since`), then looked up in the industry report itself, whose board number its
 * history is asked by; a board the report does not value is an `empty` failure.
 */
export const valuationBoard = (inst: Instrument, since: string) =>
  askWith(async (ctx) => {
    const bk = inst.kind === 'stock' ? (await fetchStockBoard(ctx, inst.symbol, since)).bk : inst.symbol
    const b = await findBoard(ctx, bk, since)
    if (!b) throw empty(CHANNEL, `the industry valuation report values no board BK${bk}`)
    return b
  })

/** The board's valuation per session since `from`, oldest first; none is an `empty` failure. */
export const boardHistory = (boardCode: string, from: string) =>
  askWith(async (ctx) => {
    const days = await fetchBoardHistory(ctx, boardCode, from)
    if (days.length === 0) throw empty(CHANNEL, `no valuation rows of board ${boardCode} since ${from}`)
    return days
  })

/** The board's dividend yield on `date`: its constituents' cash paid over the year before. */
export const boardDividendYield = (boardCode: string, date: string) => askWith((ctx) => fetchBoardDividendYield(ctx, boardCode, date))
