import { describe, expect, it } from 'vitest'
import { parseSymbol } from '../../domain/symbols'
import { quoteCode } from './codes'

describe('sina quoteCode', () => {
  it.each([
    ['sh600519', 'sh600519'],
    ['sz000001', 'sz000001'],
    ['bj830799', 'bj830799'],
    ['hk00700', 'rt_hk00700'],
    ['usAAPL', 'gb_aapl'],
    ['usBRK-B', 'gb_brk$b'], // class shares: `$` (captured gb_brk$b lines)
    ['us.DJI', 'gb_$dji'],
    ['us.IXIC', 'gb_ixic'],
    ['fuRB2501', 'nf_RB2501'],
    ['fuSR2501', 'nf_SR501'],
    ['fuSR501', 'nf_SR501'],
    ['fuIF2501', 'nf_IF2501'],
    ['fuRB0', 'nf_RB0'], // main continuous contract
    ['fuSR0', 'nf_SR0'],
    ['fuIF0', 'nf_IF0'],
    ['pt0477', undefined],
    ['fxUSDCNH', undefined],
  ])('%s → %s', (code, expected) => {
    expect(quoteCode(parseSymbol(code))).toBe(expected)
  })
})
