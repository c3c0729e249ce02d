/** One row of Tencent's whole-market rank list (./market-rank.ts), which the market-breadth counts read. */

/** One stock's session as the list gives it, in the service's units. */
export interface RankListRow {
  code: string
  name: string
  date: string
  /** Last price, CNY. */
  close: number
  /** Previous close, CNY (`zxj − zd`). */
  preClose: number
  /** Shares. */
  volume: number
  /** CNY. */
  amount: number
  /** No trade in the session (the list's only sign of a suspension). */
  halted: boolean
  traded: boolean
}
