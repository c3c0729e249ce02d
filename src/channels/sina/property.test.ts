import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseSymbol } from '../../domain/symbols'
import { ChannelError } from '../errors'
import { parseFactors } from './factors'
import { parseKline } from './kline'
import { parseQuotes } from './quotes'

const onlyChannelErrors = (f: () => unknown) => {
  try {
    f()
  } catch (e) {
    expect(e).toBeInstanceOf(ChannelError)
  }
}

const wanted = new Map([
  ['sz000001', parseSymbol('sz000001')],
  ['gb_$dji', parseSymbol('us.DJI')],
  ['nf_if2501', parseSymbol('fuIF2501')],
])
const LINE = 'var hq_str_sz000001="平安银行,11.20,11.15,11.32,11.40,11.10,11.31,11.32,85643210,965432100.500,21300,11.31,45200,11.30,12000,11.29,8800,11.28,30100,11.27,9900,11.32,15600,11.33,22000,11.34,5400,11.35,61000,11.36,2025-01-02,15:00:03,00";'
const text = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.json())

describe('sina parsers never throw anything but ChannelError', () => {
  it('parseQuotes', () => {
    const swapped = fc.tuple(fc.nat(), fc.string()).map(([k, s]) => {
      const f = LINE.split(',')
      f[k % f.length] = s
      return f.join(',')
    })
    const lines = fc.tuple(fc.constantFrom('sz000001', 'gb_$dji', 'nf_IF2501'), text).map(([code, t]) => `var hq_str_${code}="${t}";`)
    fc.assert(fc.property(fc.oneof(text, swapped, lines), (t) => onlyChannelErrors(() => parseQuotes(t, wanted))), { numRuns: 500 })
  })

  it('parseKline', () => {
    const jsonp = fc.anything().map((x) => `=(${JSON.stringify([x])});`)
    fc.assert(fc.property(fc.oneof(text, jsonp, text.map((t) => `=(${t});`)), fc.constantFrom(1, 5, 240), (t, s) => onlyChannelErrors(() => parseKline(t, s))), { numRuns: 500 })
  })

  it('parseFactors', () => {
    const js = fc.anything().map((x) => `var x={data:${JSON.stringify(x) ?? ''}}`)
    fc.assert(fc.property(fc.oneof(text, js, text.map((t) => `var x={${t}}`)), (t) => onlyChannelErrors(() => parseFactors(t))), { numRuns: 500 })
  })
})
