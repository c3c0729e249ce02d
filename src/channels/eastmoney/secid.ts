import { FOREX_PAIRS, FUTURES_EXCHANGES, FUTURES_PRODUCTS, US_EXCHANGES, US_INDEXES, US_LISTINGS } from '../../data/markets'
import type { Instrument } from '../../domain/instrument'
import { unsupported } from '../errors'
import { CHANNEL } from './wire'

/** Venues tried, in this order, for a US ticker missing from `US_LISTINGS`. */
const US_FALLBACK = (['NASDAQ', 'NYSE', 'AMEX'] as const).map((v) => US_EXCHANGES[v].eastmoney)

/**
 * Eastmoney secids for an instrument, most likely first. There is exactly one except for a US
 * ticker missing from `US_LISTINGS`, which may be on NASDAQ (105), NYSE (106) or AMEX (107).
 * Throws an `unsupported` {@link ChannelError} when no secid can be formed.
 */
export function secids(inst: Instrument): string[] {
  const s = inst.symbol
  switch (inst.prefix) {
    case 'sh':
      return [`1.${s}`]
    // Eastmoney files Beijing codes under market 0 with Shenzhen.
    case 'sz':
    case 'bj':
      return [`0.${s}`]
    case 'pt':
      return [`90.BK${s}`]
    case 'hk':
      return [`116.${s}`]
    case 'us':
      return usSecids(inst)
    case 'fu':
      return [futuresSecid(inst)]
    case 'fx': {
      const pair = FOREX_PAIRS[s.toUpperCase()]
      if (!pair) throw unsupported(CHANNEL, `unknown forex pair ${inst.code}`)
      return [`${pair.eastmoney}.${s.toUpperCase()}`]
    }
  }
}

function usSecids(inst: Instrument): string[] {
  const t = inst.symbol.toUpperCase()
  if (inst.kind === 'us-index') {
    const index = US_INDEXES[t]
    if (!index) throw unsupported(CHANNEL, `unknown US index ${inst.code}`)
    return [index.eastmoney]
  }
  const venue = US_LISTINGS[t]
  if (venue) return [`${US_EXCHANGES[venue].eastmoney}.${t}`]
  return US_FALLBACK.map((market) => `${market}.${t}`)
}

/**
 * `<market>.<contract>`: lower-case product + YYMM on SHFE, DCE, INE and GFEX (`113.rb2501`),
 * upper-case product + YMM on CZCE (`115.SR501`), upper-case + YYMM on CFFEX (`8.IF2501`).
 * The main continuous contract (`fuRB0`) is the product plus `m` in the exchange's case:
 * `113.rbm` 螺纹钢主连, `114.mm`, `115.SRM` (efinance get_futures_base_info lists `114.jmm`
 * 焦煤主力 and `115.ZCM` 动力煤主力); CFFEX `8.IFM` by the same rule, unconfirmed and doubtful:
 * dated contracts are seen as `8.IF2506` in public clients, but a data-source report that says it
 * probed the live hosts on 2026-09-03 found "中金所（secid=8.ifm）在 push2 无数据", another that
 * `8.IF00/IC00/IH00` answer `rc=100, data=null`, and clients name CFFEX quotes by numeric codes
 * (`8.040120` "沪深300期指(IF当月)", `8.041104`) whose scheme we do not know (research index file
 * ids 61991168468, 57001436620, 71636148162, 28395236441). An answer without data gives no quote
 * (stock/get: `empty`; the batch quotes: no row), never a wrong one.
 */
function futuresSecid(inst: Instrument): string {
  const m = /^([A-Za-z]{1,2})(0|\d{3,4})$/.exec(inst.symbol)
  const product = m && FUTURES_PRODUCTS[m[1].toUpperCase()]
  if (!m || !product) throw unsupported(CHANNEL, `unknown futures contract ${inst.code}`)
  const code = m[1].toUpperCase()
  const month = m[2]
  const market = FUTURES_EXCHANGES[product.exchange].eastmoney
  if (month === '0') {
    const upper = product.exchange === 'CZCE' || product.exchange === 'CFFEX'
    return `${market}.${upper ? code + 'M' : code.toLowerCase() + 'm'}`
  }
  switch (product.exchange) {
    case 'CZCE':
      // CZCE drops the decade digit; accept either spelling.
      return `${market}.${code}${month.slice(-3)}`
    case 'CFFEX':
      if (month.length !== 4) throw unsupported(CHANNEL, `${inst.code}: CFFEX contracts need a YYMM month`)
      return `${market}.${code}${month}`
    default:
      // A three-digit month names no decade; guessing one could fetch the wrong contract.
      if (month.length !== 4) throw unsupported(CHANNEL, `${inst.code}: ${product.exchange} contracts need a YYMM month`)
      return `${market}.${code.toLowerCase()}${month}`
  }
}
