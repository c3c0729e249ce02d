/** The indicator state a stock carries from one session to the next; its stepping is in ./step.ts. */

/** What carries a stock's indicators from one session to the next. JSON-safe via `encodeState` (./step.ts). */
export interface StepState {
  /** The version of the JSON form (src/domain/indicators/step.ts STEP_VERSION). */
  v: 1
  /** Date of the last bar stepped. */
  date: string
  /** Bars stepped since the first of the history (the next bar's index). */
  i: number
  /** The last bars, oldest first: closes up to CLOSE_KEEP, the rest up to BAR_KEEP. */
  o: number[]
  h: number[]
  l: number[]
  c: number[]
  vol: number[]
  /** Running sum and undefined-input count of each of SUMS. */
  sums: number[]
  miss: number[]
  /** Each of SMOOTHS; NaN until its first defined input. */
  ys: number[]
  obv: number
  /** The last values of the inputs that depend on earlier sums, oldest first. */
  dx: number[]
  adx: number[]
  trix: number[]
  psy: number[]
  dif: number[]
}
