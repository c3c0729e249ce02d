/**
 * The jobs' {@link HistorySource} on the Eastmoney channel: `clist` for the whole market,
 * `RPT_SHAREBONUS_DET` for corporate actions, `kline/get` with `fqt=0` for raw bars. The fetch
 * comes from `services.channelContext`, so under the emulator entry it is the emulator's.
 */
import { fetchCorporateActions } from '../channels/eastmoney/dividends'
import { fetchMarketSnapshot } from '../channels/eastmoney/market-list'
import { fetchRawDaily } from '../channels/eastmoney/raw-daily'
import { ChannelError } from '../channels/errors'
import type { Services } from '../services'
import type { HistorySource } from './source'

/** The Eastmoney-backed source. A range without bars (not listed yet, suspended) is `[]`, not an error. */
export function channelSource(services: Pick<Services, 'channelContext'>): HistorySource {
  const ctx = services.channelContext
  return {
    snapshot: () => fetchMarketSnapshot(ctx),
    rawDaily: async (inst, from, to) => {
      try {
        return await fetchRawDaily(ctx, inst, from, to)
      } catch (e) {
        if (e instanceof ChannelError && e.kind === 'empty') return []
        throw e
      }
    },
    actions: (q) => fetchCorporateActions(ctx, q),
  }
}
