import type { InstrumentKind } from './instrument'
import { addDays, beijing, weekday } from './dates'

/**
 * First date of the minute-bar window (docs/api-guide.md, /v1/kline): for A-share kinds the first day of
 * the previous calendar month; for HK and US about the latest five trading days (we count five
 * weekdays back; the upstream's own calendar trims further).
 */
export function minuteWindowStart(kind: InstrumentKind, now: number): string {
  const today = beijing(now).date
  if (kind === 'hk' || kind === 'us') {
    let d = today
    for (let n = 0; n < 5; ) {
      d = addDays(d, -1)
      const w = weekday(d)
      if (w !== 0 && w !== 6) n++
    }
    return d
  }
  const y = Number(today.slice(0, 4))
  const m = Number(today.slice(5, 7))
  const [py, pm] = m === 1 ? [y - 1, 12] : [y, m - 1]
  return `${py}-${String(pm).padStart(2, '0')}-01`
}
