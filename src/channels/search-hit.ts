/** One answer of a search (suggest) upstream, in our vocabulary. Every search channel returns these. */
export interface SearchHit {
  /** Our prefixed code: `sh600519`, `sz159915`, `pt0477`, `hk00700`, `usAAPL`. */
  code: string
  name: string
  kind: SearchKind
  market: SearchMarket
  /** Pinyin initials of the name as the upstream gives them (`GZMT`); null when it gives none. */
  pinyin: string | null
}

export const SEARCH_KINDS = ['stock', 'fund', 'index', 'sector', 'bond'] as const
export type SearchKind = (typeof SEARCH_KINDS)[number]

export const SEARCH_MARKETS = ['shanghai', 'shenzhen', 'beijing', 'a_share', 'hong_kong', 'us'] as const
export type SearchMarket = (typeof SEARCH_MARKETS)[number]

/** The market of an A-share-exchange prefix; industry boards span both exchanges. */
export const MARKET_OF_PREFIX: Record<string, SearchMarket> = { sh: 'shanghai', sz: 'shenzhen', bj: 'beijing', pt: 'a_share', hk: 'hong_kong', us: 'us' }
