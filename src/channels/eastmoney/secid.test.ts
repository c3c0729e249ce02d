import { describe, expect, it } from 'vitest'
import type { Instrument } from '../../domain/instrument'
import { parseSymbol } from '../../domain/symbols'
import { ChannelError } from '../errors'
import { secids } from './secid'

describe('secids', () => {
  it.each([
    ['sh600519', '1.600519'],
    ['sh688981', '1.688981'],
    ['sh000001', '1.000001'],
    ['sh510300', '1.510300'],
    ['sh113050', '1.113050'],
    ['sz000001', '0.000001'],
    ['sz300750', '0.300750'],
    ['sz399006', '0.399006'],
    ['sz159915', '0.159915'],
    ['sz123100', '0.123100'],
    ['bj830799', '0.830799'],
    ['bj920001', '0.920001'],
    ['pt0477', '90.BK0477'],
    ['hk00700', '116.00700'],
    ['usAAPL', '105.AAPL'],
    ['usBABA', '106.BABA'],
    ['us.DJI', '100.DJIA'],
    ['usIXIC', '100.NDX'],
    ['us.SPX', '100.SPX'],
    ['fxUSDCNH', '133.USDCNH'],
    ['fxEURUSD', '119.EURUSD'],
  ])('%s → %s', (code, secid) => {
    expect(secids(parseSymbol(code))).toEqual([secid])
  })

  it('tries NASDAQ, NYSE, AMEX in order for an unlisted US ticker', () => {
    expect(secids(parseSymbol('usSPY'))).toEqual(['105.SPY', '106.SPY', '107.SPY'])
  })

  it.each([
    ['fuRB2501', '113.rb2501'], // SHFE: lower-case, YYMM
    ['fuau2512', '113.au2512'],
    ['fuM2505', '114.m2505'], // DCE
    ['fuI2509', '114.i2509'],
    ['fuSC2503', '142.sc2503'], // INE
    ['fuLC2507', '225.lc2507'], // GFEX
    ['fuSR2501', '115.SR501'], // CZCE: upper-case, YMM
    ['fuSR501', '115.SR501'],
    ['futa509', '115.TA509'],
    ['fuIF2501', '8.IF2501'], // CFFEX: upper-case, YYMM
    ['fuRB0', '113.rbm'], // main continuous contracts: product + m in the exchange's case
    ['fuM0', '114.mm'],
    ['fuSR0', '115.SRM'],
    ['fuIF0', '8.IFM'],
    ['fuim2503', '8.IM2503'],
  ])('futures %s → %s', (code, secid) => {
    expect(secids(parseSymbol(code))).toEqual([secid])
  })

  it.each(['fuRB501', 'fuIF501'])('refuses %s: a three-digit month names no decade outside CZCE', (code) => {
    expect(() => secids(parseSymbol(code))).toThrow(expect.objectContaining({ kind: 'unsupported' }))
  })

  it('refuses instruments missing from the tables as unsupported', () => {
    const odd: Instrument[] = [
      { code: 'fxXAUUSD', prefix: 'fx', symbol: 'XAUUSD', kind: 'forex' },
      { code: 'us.FTSE', prefix: 'us', symbol: 'FTSE', kind: 'us-index' },
      { code: 'fuZZ2501', prefix: 'fu', symbol: 'ZZ2501', kind: 'future' },
    ]
    for (const i of odd) {
      expect(() => secids(i)).toThrow(ChannelError)
      expect(() => secids(i)).toThrow(/unsupported/)
    }
  })
})
