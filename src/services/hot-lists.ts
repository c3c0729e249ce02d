import { fetchHotRank, type HotList, type HotRankEntry } from '../channels/eastmoney/hot-rank'
import { fetchThsHotList } from '../channels/ths/hot-list'
import type { Ask } from './types'

export type { HotList, HotRankEntry } from '../channels/eastmoney/hot-rank'

/** The popularity ranking of `list`: Eastmoney's Guba rank (A-shares or US), or the 10jqka hot list (A-shares). /v1/hot. */
export const hotRank =
  (list: HotList): Ask<HotRankEntry[]> =>
  (channel, ctx) =>
    channel === 'ths' ? fetchThsHotList(ctx) : fetchHotRank(ctx, list)
