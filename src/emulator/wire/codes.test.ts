import { describe, expect, it } from 'vitest'
import { bySecid, bySinaCode, byTencentKlineCode, byTencentQuoteCode, sinaCode, tencentKlineCodes, tencentQuoteCode } from './codes'
import { fakeMarket } from './fake-market'

const inst = (code: string) => fakeMarket.byCode(code)!

describe('upstream identifiers (README table)', () => {
  it('names instruments as each upstream does', () => {
    const table: Array<[string, string | undefined, string[], string | undefined]> = [
      ['sh600519', 'sh600519', ['sh600519'], 'sh600519'],
      ['bj830799', 'bj830799', ['bj830799'], 'bj830799'],
      ['hk00700', 'hk00700', ['hk00700'], 'rt_hk00700'],
      ['usAAPL', 'usAAPL', ['usAAPL.OQ'], 'gb_aapl'],
      ['usBABA', 'usBABA', ['usBABA.N'], 'gb_baba'],
      ['us.DJI', 'usDJI', ['usDJI', 'us.DJI'], 'gb_$dji'],
      ['fuRB2501', undefined, [], 'nf_RB2501'],
      ['fuSR2501', undefined, [], 'nf_SR501'],
      ['fuIF2501', undefined, [], 'nf_IF2501'],
      ['pt0477', undefined, [], undefined],
      ['fxUSDCNH', undefined, [], undefined],
    ]
    for (const [code, tq, tk, s] of table) {
      expect([code, tencentQuoteCode(inst(code)), tencentKlineCodes(inst(code)), sinaCode(inst(code))]).toEqual([code, tq, tk, s])
    }
  })

  it('looks instruments up by each upstream identifier', () => {
    expect(bySecid(fakeMarket, '113.RB2501')?.code).toBe('fuRB2501')
    expect(bySecid(fakeMarket, '105.BABA')).toBeUndefined()
    expect(byTencentQuoteCode(fakeMarket, 'usDJI')?.code).toBe('us.DJI')
    expect(byTencentKlineCode(fakeMarket, 'usAAPL.OQ')?.code).toBe('usAAPL')
    expect(byTencentKlineCode(fakeMarket, 'usAAPL')).toBeUndefined()
    expect(bySinaCode(fakeMarket, 'gb_$dji')?.code).toBe('us.DJI')
    expect(bySinaCode(fakeMarket, 'nf_SR501')?.code).toBe('fuSR2501')
  })
})
