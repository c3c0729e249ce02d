/** Dates as YYYYMMDD numbers, the form the stored histories keep them in (src/store/history.ts). */

/** `2016-08-08` → 20160808. */
export const dateNum = (date: string): number => Number(date.slice(0, 4) + date.slice(5, 7) + date.slice(8, 10))

/** 20160808 → `2016-08-08`. */
export function numDate(n: number): string {
  const s = String(n)
  return `${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}`
}
