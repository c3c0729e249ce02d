import { FUTURES_PRODUCTS, US_INDEXES, type FuturesExchange } from '../../data/markets'
import type { Instrument } from '../../domain/instrument'

/** sh/sz/bj stocks, indexes, ETFs and bonds: the instruments with Sina K-lines and the A-share line. */
export const isAShare = (i: Instrument): boolean => i.prefix === 'sh' || i.prefix === 'sz' || i.prefix === 'bj'

/** The exchange a futures contract trades on (`RB2501` → SHFE), or undefined for an unknown product. */
export function futuresExchange(i: Instrument): FuturesExchange | undefined {
  const product = /^[A-Z]+/.exec(i.symbol)?.[0]
  return product ? FUTURES_PRODUCTS[product]?.exchange : undefined
}

/**
 * Sina's `hq.sinajs.cn` code: `sh600519`, `rt_hk00700`, `gb_aapl`, `gb_brk$b`, `gb_$dji`, `nf_RB2501`,
 * CZCE with a one-digit year (`nf_SR501`). Undefined when Sina has no quote for it.
 */
export function quoteCode(i: Instrument): string | undefined {
  if (isAShare(i)) return i.code
  switch (i.kind) {
    case 'hk':
      return 'rt_hk' + i.symbol
    case 'us':
      // Class shares take `$` where we write `-`: BRK-B → gb_brk$b, as captured lines name it
      // (test/fixtures/sina/SOURCE.md).
      return 'gb_' + i.symbol.toLowerCase().replaceAll('-', '$')
    case 'us-index':
      return US_INDEXES[i.symbol]?.sina
    case 'future': {
      const ex = futuresExchange(i)
      if (!ex) return undefined
      // CZCE contracts carry one year digit: SR2501 → SR501.
      const m = /^([A-Z]+)\d(\d{3})$/.exec(i.symbol)
      return 'nf_' + (ex === 'CZCE' && m ? m[1] + m[2] : i.symbol)
    }
    default:
      return undefined
  }
}
