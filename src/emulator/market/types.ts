/**
 * The emulator's simulated market, as the wire layer (src/emulator/wire) sees it. Everything is
 * deterministic: the same instrument, date and clock always give the same numbers.
 * Units here are the ground truth the wire layer converts from: volume in shares (contracts for
 * futures, units for forex), amount in the instrument's currency (CNY for A-shares), turnover in %.
 */
import type { Instrument } from '../../domain/instrument'
import type { QuoteHost } from './day-timeline'

export interface EmuInstrument extends Instrument {
  name: string
  /** First trading day (`YYYY-MM-DD`); history before it does not exist. */
  listDate: string
  /** Price decimals: 2 for stocks, indexes, HK, US, futures; 3 for ETFs and bonds; 4 for forex. */
  decimals: number
  /** Daily price limit as a fraction (0.1, 0.2, 0.3, 0.05 for ST); null where there is none (HK, US, indexes, forex). */
  limit: number | null
  /** Float and total shares (stocks, ETFs: fund units; others null). */
  floatShares: number | null
  totalShares: number | null
  currency: 'CNY' | 'HKD' | 'USD'
  /** Eastmoney secid, e.g. `1.600519`, `116.00700`, `105.AAPL`, `90.BK0477`, `113.rb2501`, `133.USDCNH`. */
  secid: string
  /** Last trading day (`YYYY-MM-DD`) of an instrument that stops trading (futures contracts); absent otherwise. */
  lastDate?: string
}

/** A corporate action: cash dividend per share and bonus/split shares per share (10送5 → 0.5). */
export interface CorporateAction {
  exDate: string
  cash: number
  bonus: number
}

/** One raw (unadjusted) bar; minute bars carry `YYYY-MM-DD HH:MM` (bar end time) in `date`. */
export interface RawBar {
  date: string
  open: number
  high: number
  low: number
  close: number
  /** Previous close as the exchange quotes it (after an ex-date: the ex-rights reference price). */
  preClose: number
  volume: number
  amount: number
  /** Percent of float shares; null for indexes, sectors, futures, forex. */
  turnover: number | null
}

/** Level-1 order book: five price levels each side, volume in shares. */
export interface Book {
  bids: Array<[price: number, volume: number]>
  asks: Array<[price: number, volume: number]>
}

/**
 * Where the line of a host stands (src/emulator/market/day-timeline.ts):
 * - `trading`: the session has traded (continuous trading, the lunch break, 09:25–09:30 after the
 *   opening match); `bar` is the day so far;
 * - `closed`: a finished session, shown until the host's next reset (after the close, nights,
 *   weekends, holidays); `bar` is its final bar and `book` its closing book;
 * - `preopen`: the host has re-stamped the line to a session day without a trade yet;
 * - `auction`: the opening call auction, with {@link LiveQuote.auction};
 * - `suspended`: the instrument does not trade on the line's session day;
 * - `unlisted`: the line's day is before the instrument's first session.
 * In the last four `bar` is flat at the reference price (the previous close) with no volume.
 */
type QuoteState = 'trading' | 'closed' | 'preopen' | 'auction' | 'suspended' | 'unlisted'

/** The opening call auction as the hosts show it: the indicative price with the volume matched and left over. */
export interface AuctionView {
  /** The indicative matched price: the price the day opens at. */
  price: number
  /** Shares matched at that price so far. */
  matched: number
  /** Shares left unmatched, on the `side` with more orders. */
  unmatched: number
  side: 'bid' | 'ask'
}

/** The real-time state of one instrument on one host at the emulator's clock. */
export interface LiveQuote {
  instrument: EmuInstrument
  /** Session day the line belongs to. */
  date: string
  /** `HH:MM:SS` exchange time of the line's last update. */
  time: string
  state: QuoteState
  /** The session's bar (see {@link QuoteState}). */
  bar: RawBar
  /** The book: live, the closing one after the close, the auction's in the auction, else empty. */
  book: Book
  /** The auction, in state `auction` only. */
  auction: AuctionView | null
}

/** What the market model offers. `now` is the emulator clock in epoch milliseconds. */
export interface MarketModel {
  /** Every instrument the emulator knows, in a stable order. */
  instruments(): readonly EmuInstrument[]
  /** By canonical code (`sh600519`, `us.DJI`, `fuRB2501`); undefined if unknown. */
  byCode(code: string): EmuInstrument | undefined
  /**
   * Corporate actions, ascending by ex-date (empty for kinds without them). With `now`, only those
   * whose ex-date is on or before now's Beijing date.
   */
  actions(inst: EmuInstrument, now?: number): readonly CorporateAction[]
  /**
   * Raw daily bars with from <= date <= to, ascending, only days the instrument traded and that
   * have closed by `now` (plus today's partial bar when the session is open at `now`).
   */
  dailyBars(inst: EmuInstrument, from: string, to: string, now: number): RawBar[]
  /**
   * Raw minute bars of `minutes` length (1, 5, 15, 30, 60) with from <= date-part <= to,
   * ascending, only within the minute window at `now`, only bars that have ended by `now`.
   */
  minuteBars(inst: EmuInstrument, minutes: number, from: string, to: string, now: number): RawBar[]
  /** First date of the minute window at `now` (A-share: first day of the previous calendar month; HK/US: five trading days back). */
  minuteWindowStart(inst: EmuInstrument, now: number): string
  /**
   * Forward-adjustment multiplier for a date: qfq price = raw × qfqFactor (1 after the last ex-date).
   * With `now`, actions with an ex-date after now's Beijing date are ignored.
   */
  qfqFactor(inst: EmuInstrument, date: string, now?: number): number
  /** Backward-adjustment multiplier: hfq price = raw × hfqFactor (1 before the first ex-date). `now` as for qfqFactor. */
  hfqFactor(inst: EmuInstrument, date: string, now?: number): number
  /** The line of `host` (default Eastmoney; hosts differ in when they re-stamp a new day, see day-timeline.ts). */
  live(inst: EmuInstrument, now: number, host?: QuoteHost): LiveQuote
  /** Futures: open interest (contracts) at the close of `date`; 0 for other kinds and outside a contract's life. */
  openInterest(inst: EmuInstrument, date: string): number
  /**
   * The contract a main continuous contract (`fuRB0`) follows on `date`: the largest open interest
   * at the previous session's close. Any other instrument is its own; undefined before the product trades.
   */
  mainContract(inst: EmuInstrument, date: string): EmuInstrument | undefined
}
