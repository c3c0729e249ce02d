/**
 * Turnover and volume by A-share board (/v1/market-overview?type=trade), counted over the
 * whole-market list. Pure.
 */
import type { Board } from './instrument'
import { boardOfCode } from './price-limit'

/** Boards in display order with their names. */
export const BOARD_NAMES: ReadonlyArray<[Board, string]> = [
  ['sh-main', 'SSE main board'],
  ['star', 'STAR Market'],
  ['sz-main', 'SZSE main board'],
  ['chinext', 'ChiNext'],
  ['bj', 'Beijing Stock Exchange'],
]

export interface TradeRow {
  code: string
  /** Shares. */
  volume: number
  /** CNY. */
  amount: number
  /** Traded in the session counted. */
  traded: boolean
}

export interface BoardTurnover {
  board: Board
  name: string
  /** Stocks listed on the board. */
  stocks: number
  /** Stocks that traded this session. */
  traded: number
  /** Shares traded. */
  volume: number
  /** CNY traded. */
  amount: number
  /** Share of the whole market's amount, percent (2 decimals). */
  amount_share_pct: number
}

export function boardTurnover(rows: readonly TradeRow[]): { boards: BoardTurnover[]; total: { stocks: number; traded: number; volume: number; amount: number } } {
  const by = new Map<Board, BoardTurnover>(BOARD_NAMES.map(([board, name]) => [board, { board, name, stocks: 0, traded: 0, volume: 0, amount: 0, amount_share_pct: 0 }]))
  for (const r of rows) {
    const board = boardOfCode(r.code)
    const b = board && by.get(board)
    if (!b) continue
    b.stocks++
    if (!r.traded) continue
    b.traded++
    b.volume += r.volume
    b.amount += r.amount
  }
  const boards = [...by.values()]
  const total = boards.reduce((t, b) => ({ stocks: t.stocks + b.stocks, traded: t.traded + b.traded, volume: t.volume + b.volume, amount: t.amount + b.amount }), { stocks: 0, traded: 0, volume: 0, amount: 0 })
  for (const b of boards) {
    b.amount = Math.round(b.amount * 100) / 100
    b.amount_share_pct = total.amount > 0 ? Math.round((b.amount / total.amount) * 10000) / 100 : 0
  }
  total.amount = Math.round(total.amount * 100) / 100
  return { boards, total }
}
