/** The technicals table of one session as its readers see it; built by `technicalsDay` (./technicals.ts). */

/** A day's table ready for lookups. */
export interface TechnicalsDay {
  date: string
  size: number
  /** The stored row of `code`: its name and the value of each column, or undefined. */
  row(code: string): { name: string | null; get(column: string): number | null } | undefined
  /**
   * The technical row of `code` (code, name, date, then the technical columns) as JSON text, made
   * once per isolate: a 1,000-symbol batch then joins ready strings instead of serialising 55,000 values.
   */
  rowJson(code: string): string | undefined
  /**
   * The whole batch item of `code` (`{"code":…,"ok":true,"data":row}`) as UTF-8 bytes, made once per
   * isolate: a batch answer is then one copy of ready bytes per symbol, with no string to build or encode.
   */
  itemBytes(code: string): Uint8Array | undefined
  codes(): string[]
}
