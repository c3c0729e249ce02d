import { fetchSuggest } from '../channels/eastmoney/search'
import type { SearchHit } from '../channels/search-hit'
import { fetchSinaSuggest } from '../channels/sina/suggest'
import type { Ask } from './types'

export { SEARCH_KINDS, SEARCH_MARKETS, type SearchHit } from '../channels/search-hit'

/** What the upstream suggests for `keyword` (a code, a name, pinyin initials): Eastmoney's suggest (`count` rows), or Sina's. /v1/search. */
export const suggestions =
  (keyword: string, count: number): Ask<SearchHit[]> =>
  (channel, ctx) =>
    channel === 'eastmoney' ? fetchSuggest(ctx, keyword, count) : fetchSinaSuggest(ctx, keyword)
