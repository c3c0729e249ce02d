/**
 * The whole A-share market's breadth, fetched and counted at most once per 10 s for the whole
 * service: /v1/changedist answers it, and /v1/market-overview's summary and trade types read the
 * same list and count.
 */
import { fetchMarketSnapshot } from '../channels/eastmoney/market-list'
import { fetchRankListMarket } from '../channels/tencent/market-rank'
import { changeDistribution, type ChangeDistribution } from '../domain/change-distribution'
import { isoInstant } from '../domain/instant'
import { latestSession } from '../domain/market-phase'
import { upstreamFailureBody } from '../http/outcome'
import type { MarketDeps } from './market-deps'
import type { SharedOptions } from './shared-answers'
import type { ChangedistBody, ListRow } from './types'

/** The session's trade date: the date most traded rows carry. */
function sessionDate(rows: readonly ListRow[]): string {
  const counts = new Map<string, number>()
  for (const r of rows) if (r.traded) counts.set(r.date, (counts.get(r.date) ?? 0) + 1)
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? 1 : -1))[0]?.[0] ?? ''
}

/** Channels of the whole-market list: Eastmoney's clist, then Tencent's rank list. */
const MARKET_LIST_CHAIN = ['eastmoney', 'tencent'] as const

/**
 * The whole A-share market list, fetched at most once per 10 s for the whole service: changedist
 * and the overview's summary and trade types count the same rows.
 */
export async function sharedMarketList(services: MarketDeps) {
  const { value } = await services.sharedAnswers.answer(
    'market-list', 'changedist', services.now(),
    () => services.failover.run('market-list', MARKET_LIST_CHAIN, (channel): Promise<ListRow[]> => {
      const ctx = services.channelContext
      // The rank list has no date: its rows are the latest session's (today's from the 09:25 match).
      if (channel === 'tencent') return fetchRankListMarket(ctx, latestSession(services.now()))
      return fetchMarketSnapshot(ctx)
    }),
    (r) => r.ok
  )
  return value
}

/** The whole-market list counted, or why not (the body of /v1/changedist). */
async function computeChangedist(services: MarketDeps): Promise<ChangedistBody> {
  const r = await sharedMarketList(services)
  if (!r.ok) return upstreamFailureBody(r.attempts, 'whole-market list', null)
  const computedAt = isoInstant(services.now())
  const counted: ChangeDistribution = changeDistribution(r.value)
  if (counted.traded === 0) {
    return { ok: false, source: services.sourcePrefix + r.channel, data: null, code: 'NO_DATA', error: `no A-share stock has traded in the current session yet (${computedAt})` }
  }
  return {
    ok: true,
    source: services.sourcePrefix + r.channel,
    data: { date: sessionDate(r.value), computed_at: computedAt, ...counted },
    as_of: computedAt,
  }
}

/**
 * The cached count (10 s), shared by /v1/changedist and /v1/market-overview. With `waitUntil`
 * (the changedist handler), an answer up to 30 s old is served while one refresh runs.
 */
export function sharedChangedist(services: MarketDeps, opts: SharedOptions = {}) {
  return services.sharedAnswers.answer('changedist', 'changedist', services.now(), () => computeChangedist(services), (b) => b.ok, opts)
}
