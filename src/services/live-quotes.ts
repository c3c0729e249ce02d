import type { Instrument } from '../domain/instrument'
import type { MarketDeps } from './market-deps'
import { empty } from '../channels/errors'
import type { Quote } from '../domain/bar'
import type { FailoverResult } from '../channels/failover'
import type { SeriesChannelName } from '../channels/types'
import type { LiveQuotes } from './types'
import { quoteChannels, kindGroup } from '../channels/channel-tables'

/**
 * Real-time quotes of many instruments in as few requests as the channels allow: one batch per
 * kind group (A-share, US, …) over the group's quote chain, through the failover under the same keys
 * as /v1/quote (`quote:<group>`), so both take their prices from the same channel.
 */
export async function fetchLiveQuotes(services: MarketDeps, instruments: readonly Instrument[]): Promise<LiveQuotes> {
  const groups = new Map<string, Instrument[]>()
  for (const i of instruments) {
    const g = kindGroup(i.kind)
    const list = groups.get(g)
    if (list) list.push(i)
    else groups.set(g, [i])
  }
  const out: LiveQuotes = { quotes: new Map(), failed: [] }
  await Promise.all(
    [...groups].map(async ([group, list]) => {
      const r = await services.failover.run(`quote:${group}`, quoteChannels(list[0].kind), async (name) => {
        const quotes = await services.channels[name].quotes(list, services.channelContext)
        // A channel that knows none of them has nothing to say: the next one may.
        if (quotes.size === 0) throw empty(name, `no quote for ${list.length === 1 ? list[0].code : `any of ${list.length} codes`}`)
        return { name, quotes }
      })
      if (!r.ok) return void out.failed.push({ group, attempts: r.attempts })
      for (const [code, quote] of r.value.quotes) out.quotes.set(code, { quote, channel: r.value.name })
    })
  )
  return out
}

/**
 * Real-time quotes of A-share stocks in one batch through the failover under /v1/quote's key
 * (`quote:cn`) and chain; a channel that knows none of them answers an empty map, not a failure.
 */
export function fetchStockQuotes(services: MarketDeps, instruments: Instrument[]): Promise<FailoverResult<Map<string, Quote>, SeriesChannelName>> {
  return services.failover.run(`quote:${kindGroup('stock')}`, quoteChannels('stock'), (name) => services.channels[name].quotes(instruments, services.channelContext))
}
