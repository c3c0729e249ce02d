/**
 * Each upstream's identifiers for the emulator's instruments (see the Identifiers table in
 * src/channels/README.md), and lookups from those identifiers back to instruments. The lookups are
 * indexes over `market.instruments()`, built once per market on first use.
 */
import { US_EXCHANGES, US_INDEXES } from '../../data/markets'
import { isMainContract } from '../../domain/futures'
import type { EmuInstrument, MarketModel } from '../market/types'

/** sh/sz/bj stocks, indexes, ETFs and bonds. */
export const isAShare = (i: EmuInstrument): boolean => i.prefix === 'sh' || i.prefix === 'sz' || i.prefix === 'bj'

/**
 * Shares per unit of Tencent's volume (quote line, fqkline, mkline): lots of 100 for A-shares,
 * except STAR-market stocks, which Tencent counts in shares as real captures show
 * (test/fixtures/tencent/SOURCE.md); HK and US count shares.
 */
export const tencentVolumeUnit = (i: EmuInstrument): number => (isAShare(i) && i.board !== 'star' ? 100 : 1)

/** The two halves of an Eastmoney secid: market number and code (`1.600519` → 1, `600519`). */
export function splitSecid(secid: string): { market: number; code: string } {
  const dot = secid.indexOf('.')
  return { market: Number(secid.slice(0, dot)), code: secid.slice(dot + 1) }
}

/** Tencent `qt.gtimg.cn` code: `sh600519`, `hk00700`, `usAAPL`, `usDJI`. */
export function tencentQuoteCode(i: EmuInstrument): string | undefined {
  if (isAShare(i) || i.kind === 'hk') return i.code
  if (i.kind === 'us') return 'us' + i.symbol
  if (i.kind === 'us-index') return US_INDEXES[i.symbol]?.tencent
  return undefined
}

/** Tencent K-line exchange suffix of a US listing, from its secid's market number (105 → `.OQ`). */
export function tencentUsSuffix(i: EmuInstrument): string {
  const market = splitSecid(i.secid).market
  const venue = Object.values(US_EXCHANGES).find((v) => v.eastmoney === market)
  return venue?.tencentSuffix ?? US_EXCHANGES.NASDAQ.tencentSuffix
}

/** Tencent fqkline/mkline codes: the quote code, `usAAPL.OQ` for US listings, `usDJI` and `us.DJI` for US indexes. */
export function tencentKlineCodes(i: EmuInstrument): string[] {
  if (i.kind === 'us') return ['us' + i.symbol + tencentUsSuffix(i)]
  if (i.kind === 'us-index') return [US_INDEXES[i.symbol]?.tencent, 'us.' + i.symbol].filter((c): c is string => !!c)
  const q = tencentQuoteCode(i)
  return q ? [q] : []
}

/** Sina `hq.sinajs.cn` code: `sh600519`, `rt_hk00700`, `gb_aapl`, `gb_$dji`, `nf_RB2501`. */
export function sinaCode(i: EmuInstrument): string | undefined {
  if (isAShare(i)) return i.code
  switch (i.kind) {
    case 'hk':
      return 'rt_' + i.code
    case 'us':
      return 'gb_' + i.symbol.toLowerCase()
    case 'us-index':
      return US_INDEXES[i.symbol]?.sina
    case 'future':
      // A main continuous contract is product + 0 (nf_RB0); a contract as its exchange spells it
      // (CZCE drops the decade digit), upper-case.
      return 'nf_' + (isMainContract(i) ? i.symbol : splitSecid(i.secid).code.toUpperCase())
    default:
      return undefined
  }
}

interface Indexes {
  secid: Map<string, EmuInstrument>
  tencentQuote: Map<string, EmuInstrument>
  tencentKline: Map<string, EmuInstrument>
  sina: Map<string, EmuInstrument>
}

const cache = new WeakMap<MarketModel, Indexes>()

function indexes(market: MarketModel): Indexes {
  let ix = cache.get(market)
  if (ix) return ix
  ix = { secid: new Map(), tencentQuote: new Map(), tencentKline: new Map(), sina: new Map() }
  for (const i of market.instruments()) {
    // Eastmoney matches secids case-insensitively (futures codes are lower-case on some exchanges).
    ix.secid.set(i.secid.toLowerCase(), i)
    const tq = tencentQuoteCode(i)
    if (tq) ix.tencentQuote.set(tq, i)
    for (const tk of tencentKlineCodes(i)) ix.tencentKline.set(tk, i)
    const s = sinaCode(i)
    if (s) ix.sina.set(s, i)
  }
  cache.set(market, ix)
  return ix
}

/** The instrument behind an Eastmoney secid. */
export const bySecid = (market: MarketModel, secid: string) => indexes(market).secid.get(secid.toLowerCase())

/** The instrument behind a Tencent quote code. */
export const byTencentQuoteCode = (market: MarketModel, code: string) => indexes(market).tencentQuote.get(code)

/** The instrument behind a Tencent K-line code (exact exchange suffix required for US listings). */
export const byTencentKlineCode = (market: MarketModel, code: string) => indexes(market).tencentKline.get(code)

/** The instrument behind a Sina code. */
export const bySinaCode = (market: MarketModel, code: string) => indexes(market).sina.get(code)

const stocksBySymbol = new WeakMap<MarketModel, Map<string, EmuInstrument>>()

/** The A-share stock of six digits, as Sina's corporate pages name it (stock codes do not repeat across the three exchanges). */
export function aShareStockOfSymbol(market: MarketModel, symbol: string): EmuInstrument | undefined {
  let ix = stocksBySymbol.get(market)
  if (!ix) {
    ix = new Map(market.instruments().filter((i) => i.kind === 'stock' && isAShare(i)).map((i) => [i.symbol, i]))
    stocksBySymbol.set(market, ix)
  }
  return ix.get(symbol)
}
