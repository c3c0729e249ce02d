import { describe, expect, it } from 'vitest'
import { parseSymbol } from '../../domain/symbols'
import { klineCodes, quoteCode } from './codes'

describe('tencent codes', () => {
  it.each([
    ['sh600519', 'sh600519', ['sh600519']],
    ['bj830799', 'bj830799', ['bj830799']],
    ['sz159915', 'sz159915', ['sz159915']],
    ['hk00700', 'hk00700', ['hk00700']],
    ['usAAPL', 'usAAPL', ['usAAPL.OQ']],
    ['usBABA', 'usBABA', ['usBABA.N']],
    ['usZZZZ', 'usZZZZ', ['usZZZZ.OQ', 'usZZZZ.N']],
    ['us.DJI', 'usDJI', ['usDJI']],
    ['us.SPX', 'usINX', ['usINX']],
    ['pt0477', undefined, []],
    ['fuRB2501', undefined, []],
    ['fxUSDCNH', undefined, []],
  ])('%s → quote %s, K-line %j', (code, quote, kline) => {
    const i = parseSymbol(code)
    expect(quoteCode(i)).toBe(quote)
    expect(klineCodes(i)).toEqual(kline)
  })
})
