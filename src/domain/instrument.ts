/** What kind of instrument a code names; decides which channels and periods apply. */
export type InstrumentKind =
  | 'stock'
  | 'index'
  | 'etf'
  | 'bond'
  | 'sector'
  | 'hk'
  | 'us'
  | 'us-index'
  | 'future'
  | 'forex'

type Prefix = 'sh' | 'sz' | 'bj' | 'hk' | 'us' | 'pt' | 'fu' | 'fx'

/** A-share boards; they differ in price limits and code ranges. */
export type Board = 'sh-main' | 'star' | 'sz-main' | 'chinext' | 'bj'

export interface Instrument {
  /** Canonical code: `sh600519`, `hk00700`, `usAAPL`, `us.DJI`, `pt0477`, `fuRB2501`, `fxUSDCNH`. */
  code: string
  prefix: Prefix
  /** The part after the prefix: `600519`, `00700`, `AAPL`, `DJI`, `0477`, `RB2501`, `USDCNH`. */
  symbol: string
  kind: InstrumentKind
  /** Stocks only. */
  board?: Board
}
