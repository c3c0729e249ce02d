/**
 * One OHLC bar as the channels hand it to the service: numbers, in the service's units.
 * `volume` is always in shares (or contracts / units for futures and forex), `amount` in the
 * instrument's trading currency, `turnover` in percent. `amount` and `turnover` are null when
 * the channel does not carry them (never guessed).
 */
export interface Bar {
  /** `YYYY-MM-DD` for day and longer bars, `YYYY-MM-DD HH:MM` (bar end, exchange time) for minute bars. */
  date: string
  open: number
  close: number
  high: number
  low: number
  volume: number
  amount: number | null
  turnover: number | null
}

/** A real-time quote for one instrument, in the service's units (see {@link Bar}). */
export interface Quote {
  /** Canonical code, e.g. `sh600519`. */
  code: string
  name: string
  /** Trading date of the quote, `YYYY-MM-DD`. */
  date: string
  /** Quote time `HH:MM:SS` in exchange time, when the channel gives one. */
  time: string | null
  last: number
  open: number
  high: number
  low: number
  preClose: number
  volume: number
  amount: number | null
  turnover: number | null
  /**
   * Suspended by the exchange, as the upstream flags it (Tencent field 40 `S`, Sina status other
   * than `00`, Eastmoney `"-"` prices). Never inferred from a missing volume.
   */
  halted: boolean
  /**
   * The line carries a trade of its session (`date`): open, high, low, last, volume are that
   * session's. False for a line re-stamped to a new day before its first trade (before the open,
   * in the opening call auction) and for a suspension: such a line is not a day bar; its `last` is
   * the previous close (in Tencent's auction line, the indicative matched price).
   */
  traded: boolean
}
