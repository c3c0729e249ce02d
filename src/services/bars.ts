import { aggregateBars, sourceCount } from '../domain/aggregate'
import { minuteWindowStart } from '../domain/minute-window'
import { isMinutePeriod } from '../domain/period'
import { tradingDaysBetween } from '../domain/trading-calendar'
import type { MarketDeps } from './market-deps'
import type { SeriesRequest, SeriesResult } from './types'
import { klinePlans, routeGroup } from '../channels/routing'

/**
 * Fetches one instrument's K-line through the router: the channel table decides the order, each
 * channel fetches its native period (aggregating season/year/m120 where needed), minute bars are
 * clipped to the minute window, and the newest `count` bars are kept.
 */
export async function fetchSeries(services: MarketDeps, req: SeriesRequest): Promise<SeriesResult> {
  const { instrument, period, count } = req
  const minute = isMinutePeriod(period)
  let start = req.start
  let notice: string | undefined

  if (minute) {
    const windowStart = minuteWindowStart(instrument.kind, services.now())
    notice = `minute bars cover ${windowStart} onwards`
    if (req.end !== undefined && req.end < windowStart) return { ok: true, bars: [], channel: null, notice }
    if (start !== undefined && start < windowStart) start = windowStart
  } else if (req.start && req.end && tradingDaysBetween(req.start, req.end).length === 0) {
    return { ok: true, bars: [], channel: null, notice: `no trading days between ${req.start} and ${req.end}` }
  }

  const plans = klinePlans(instrument.kind, period)
  const key = `kline:${routeGroup(instrument.kind)}:${minute ? 'minute' : 'day'}`
  const r = await services.router.run(key, plans.map((p) => p.channel), async (name) => {
    const plan = plans.find((p) => p.channel === name)!
    const want = plan.aggregate ? sourceCount(count, plan.aggregate) : count
    let bars = await services.channels[name].kline(
      { instrument, period: plan.fetch, count: want, start, end: req.end },
      services.channelContext
    )
    if (plan.aggregate) bars = aggregateBars(bars, plan.aggregate)
    if (minute) {
      const windowStart = minuteWindowStart(instrument.kind, services.now())
      bars = bars.filter((b) => b.date.slice(0, 10) >= windowStart)
    }
    return bars.slice(-count)
  })
  if (!r.ok) return { ok: false, attempts: r.attempts }
  return { ok: true, bars: r.value, channel: r.channel, notice }
}
