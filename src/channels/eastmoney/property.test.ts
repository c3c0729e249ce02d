import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseSymbol } from '../../domain/symbols'
import { ChannelError } from '../errors'
import { parseKline } from './kline'
import { parseQuotes } from './quotes'

const wanted = new Map([
  ['1.600519', parseSymbol('sh600519')],
  ['105.AAPL', parseSymbol('usAAPL')],
])
const req = { instrument: parseSymbol('sh600519'), period: 'day' as const, count: 10 }

/** Runs `fn`; passes if it returns or throws a ChannelError. */
const onlyChannelErrors = (fn: () => unknown) => {
  try {
    fn()
  } catch (e) {
    expect(e).toBeInstanceOf(ChannelError)
  }
}

const cell = fc.oneof(fc.double(), fc.integer(), fc.constantFrom('-', '', '1.5', 'x'), fc.string())
const klineRow = fc.array(cell, { minLength: 0, maxLength: 12 }).map((cs) => cs.join(','))
const quoteRow = fc.dictionary(fc.constantFrom('f2', 'f5', 'f6', 'f8', 'f12', 'f13', 'f15', 'f16', 'f17', 'f18', 'f124', 'f297'), fc.oneof(cell, fc.constant(null)))

describe('parsers under random input', () => {
  it('throw nothing but ChannelError on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        onlyChannelErrors(() => parseQuotes(text, wanted))
        onlyChannelErrors(() => parseKline(text, req))
      })
    )
  })

  it('throw nothing but ChannelError on arbitrary JSON', () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        onlyChannelErrors(() => parseQuotes(text, wanted))
        onlyChannelErrors(() => parseKline(text, req))
        onlyChannelErrors(() => parseQuotes(`{"rc":0,"data":{"diff":[${text}],"klines":[${text}]}}`, wanted))
        onlyChannelErrors(() => parseKline(`{"rc":0,"data":{"diff":[${text}],"klines":[${text}]}}`, req))
      })
    )
  })

  it('throw nothing but ChannelError on envelope-shaped bodies with random rows', () => {
    fc.assert(
      fc.property(fc.array(klineRow, { maxLength: 5 }), fc.array(quoteRow, { maxLength: 5 }), (krows, qrows) => {
        onlyChannelErrors(() => parseKline(JSON.stringify({ rc: 0, data: { klines: krows } }), req))
        const diff = qrows.map((r) => ({ ...r, f12: '600519', f13: 1 }))
        onlyChannelErrors(() => parseQuotes(JSON.stringify({ rc: 0, data: { diff } }), wanted))
      })
    )
  })
})
