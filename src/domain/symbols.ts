import { FOREX_PAIRS, FUTURES_PRODUCTS, US_INDEXES } from '../data/markets'
import type { Board, Instrument, InstrumentKind } from './instrument'
import { echoed } from './query-issue'

/** Why a code was refused, phrased for the 422 body. */
export class SymbolError extends Error {
  constructor(
    readonly input: string,
    message: string
  ) {
    super(message)
    this.name = 'SymbolError'
  }
}

type Classified = { kind: InstrumentKind; board?: Board }

/** Code ranges per A-share exchange prefix, first match wins. Kept as data (exchange rules). */
const A_SHARE_RANGES: Record<'sh' | 'sz' | 'bj', Array<[RegExp, Classified]>> = {
  sh: [
    [/^60[0135]\d{3}$/, { kind: 'stock', board: 'sh-main' }],
    [/^68[89]\d{3}$/, { kind: 'stock', board: 'star' }],
    [/^000\d{3}$/, { kind: 'index' }],
    [/^5[0-9]\d{4}$/, { kind: 'etf' }],
    [/^11[0138]\d{3}$/, { kind: 'bond' }],
  ],
  sz: [
    [/^00[0-3]\d{3}$/, { kind: 'stock', board: 'sz-main' }],
    [/^30[01]\d{3}$/, { kind: 'stock', board: 'chinext' }],
    [/^399\d{3}$/, { kind: 'index' }],
    [/^1[56]\d{4}$/, { kind: 'etf' }],
    [/^12[378]\d{3}$/, { kind: 'bond' }],
  ],
  bj: [
    [/^(4[3]|8[37]|92)\d{4}$/, { kind: 'stock', board: 'bj' }],
    [/^899\d{3}$/, { kind: 'index' }],
  ],
}

/**
 * Parses one user-supplied code into an {@link Instrument}. Prefixes are case-insensitive;
 * US indexes accept `us.DJI` and `usDJI`. Throws {@link SymbolError} with a reason a person can act on.
 */
export function parseSymbol(raw: string): Instrument {
  const input = raw.trim()
  // The messages quote what was sent, bounded as every echo is.
  const shown = echoed(raw)
  const m = /^([a-zA-Z]{2})\.?(.+)$/.exec(input)
  if (!m) throw new SymbolError(raw, `'${shown}' is not a code: expected a market prefix (sh, sz, bj, hk, us, pt, fu, fx) followed by the symbol, e.g. sh600519`)
  const prefix = m[1].toLowerCase()
  const rest = m[2]
  switch (prefix) {
    case 'sh':
    case 'sz':
    case 'bj': {
      for (const [re, c] of A_SHARE_RANGES[prefix]) {
        if (re.test(rest)) return { code: prefix + rest, prefix, symbol: rest, ...c }
      }
      throw new SymbolError(raw, `'${shown}' is not a known ${prefix.toUpperCase()} code range (stocks, indexes, ETFs and convertible bonds; six digits)`)
    }
    case 'hk':
      if (/^\d{5}$/.test(rest)) return { code: 'hk' + rest, prefix: 'hk', symbol: rest, kind: 'hk' }
      throw new SymbolError(raw, `'${shown}': HK codes are hk plus five digits, e.g. hk00700`)
    case 'us': {
      const t = rest.toUpperCase()
      if (US_INDEXES[t]) return { code: 'us.' + t, prefix: 'us', symbol: t, kind: 'us-index' }
      if (/^[A-Z][A-Z0-9-]{0,5}$/.test(t) && !input.includes('.')) return { code: 'us' + t, prefix: 'us', symbol: t, kind: 'us' }
      throw new SymbolError(raw, `'${shown}': US codes are us plus the ticker (usAAPL), or one of the indexes us.DJI, us.IXIC, us.SPX`)
    }
    case 'pt':
      if (/^\d{4}$/.test(rest)) return { code: 'pt' + rest, prefix: 'pt', symbol: rest, kind: 'sector' }
      throw new SymbolError(raw, `'${shown}': sector codes are pt plus four digits, e.g. pt0477`)
    case 'fu': {
      // Product plus contract month (RB2501, CZCE also SR501), or product plus 0: the main
      // continuous contract as Sina names it (nf_RB0), see src/domain/futures.ts.
      const c = /^([A-Za-z]{1,2})(0|\d{3,4})$/.exec(rest)
      if (c && FUTURES_PRODUCTS[c[1].toUpperCase()]) {
        const symbol = c[1].toUpperCase() + c[2]
        return { code: 'fu' + symbol, prefix: 'fu', symbol, kind: 'future' }
      }
      throw new SymbolError(raw, `'${shown}': futures codes are fu plus product and contract month (fuRB2501), or product plus 0 for the main continuous contract (fuRB0); products: ${Object.keys(FUTURES_PRODUCTS).join(', ')}`)
    }
    case 'fx': {
      const pair = rest.toUpperCase()
      if (FOREX_PAIRS[pair]) return { code: 'fx' + pair, prefix: 'fx', symbol: pair, kind: 'forex' }
      throw new SymbolError(raw, `'${shown}': forex codes are fx plus a pair, one of ${Object.keys(FOREX_PAIRS).join(', ')}`)
    }
    default:
      throw new SymbolError(raw, `'${shown}' has an unknown market prefix '${prefix}': use sh, sz, bj, hk, us, pt, fu or fx`)
  }
}

/** Splits a comma-separated `code` parameter, dropping empty items and duplicates (first wins). */
export function splitCodes(param: string): string[] {
  const seen = new Set<string>()
  const out: string[] = []
  for (const part of param.split(',')) {
    const t = part.trim()
    if (t && !seen.has(t.toLowerCase())) {
      seen.add(t.toLowerCase())
      out.push(t)
    }
  }
  return out
}
