import type { Instrument } from '../domain/instrument'
import type { MarketDeps } from './market-deps'
import { unsupported } from '../channels/errors'
import type { TurnoverBar, TurnoverBarsResult } from './types'
import { klinePlans, kindGroup } from '../channels/channel-tables'

/**
 * The newest `count` qfq daily bars up to `end` (inclusive; default: today), oldest first, from the
 * first day-K-line channel whose every bar carries a turnover rate. A channel that leaves it out
 * is `unsupported` here (never a turnover of 0), so the failover moves on.
 */
export async function fetchTurnoverBars(services: MarketDeps, instrument: Instrument, count: number, end?: string): Promise<TurnoverBarsResult> {
  const channels = klinePlans(instrument.kind, 'day').map((p) => p.channel)
  const r = await services.failover.run(`kline:${kindGroup(instrument.kind)}:day`, channels, async (name) => {
    const bars = await services.channels[name].kline({ instrument, period: 'day', count, end }, services.channelContext)
    const missing = bars.find((b) => b.turnover === null)
    if (missing) throw unsupported(name, `no turnover rate for ${instrument.code} on ${missing.date}`)
    return (end ? bars.filter((b) => b.date <= end) : bars).slice(-count) as TurnoverBar[]
  })
  if (!r.ok) return { ok: false, attempts: r.attempts }
  return { ok: true, bars: r.value, channel: r.channel }
}
