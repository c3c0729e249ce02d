import { US_EXCHANGES, US_INDEXES, US_LISTINGS } from '../../data/markets'
import type { Instrument } from '../../domain/instrument'

/** sh/sz/bj stocks, indexes, ETFs and bonds: the instruments with Tencent's A-share layouts. */
export const isAShare = (i: Instrument): boolean => i.prefix === 'sh' || i.prefix === 'sz' || i.prefix === 'bj'

/**
 * True for STAR-market stocks (688/689), whose volumes Tencent counts in shares where every other
 * A-share counts lots: the quote line (field 6, and 35 `last/volume/CNY` whose amount over it is
 * the average price), newfqkline and mkline rows alike. Real captures: test/fixtures/tencent/SOURCE.md.
 */
export const volumeInShares = (i: Instrument): boolean => i.board === 'star'

/** Tencent's `qt.gtimg.cn` code (`sh600519`, `hk00700`, `usAAPL`, `usDJI`), or undefined when Tencent has no quote for it. */
export function quoteCode(i: Instrument): string | undefined {
  if (isAShare(i)) return i.code
  switch (i.kind) {
    case 'hk':
      return 'hk' + i.symbol
    case 'us':
      return 'us' + i.symbol
    case 'us-index':
      return US_INDEXES[i.symbol]?.tencent
    default:
      return undefined
  }
}

/** Suffixes tried, in order, for a US ticker missing from `US_LISTINGS`. */
const UNKNOWN_US_SUFFIXES = [US_EXCHANGES.NASDAQ.tencentSuffix, US_EXCHANGES.NYSE.tencentSuffix]

/**
 * Tencent K-line codes to try, in order: one for A-shares, HK and US indexes; the listed
 * exchange's (`usAAPL.OQ`) for a known US ticker, else `.OQ` then `.N`. Empty when Tencent has no K-lines.
 */
export function klineCodes(i: Instrument): string[] {
  if (isAShare(i)) return [i.code]
  switch (i.kind) {
    case 'hk':
      return ['hk' + i.symbol]
    case 'us': {
      const ex = US_LISTINGS[i.symbol]
      const suffixes = ex ? [US_EXCHANGES[ex].tencentSuffix] : UNKNOWN_US_SUFFIXES
      return suffixes.map((s) => `us${i.symbol}${s}`)
    }
    case 'us-index': {
      const code = US_INDEXES[i.symbol]?.tencent
      return code ? [code] : []
    }
    default:
      return []
  }
}
