import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseSymbol } from '../../domain/symbols'
import { ChannelError } from '../errors'
import { parseFqkline, parseMkline, type RowUnits } from './kline-parse'
import { parseQuotes } from './quotes'

const onlyChannelErrors = (f: () => unknown) => {
  try {
    f()
  } catch (e) {
    expect(e).toBeInstanceOf(ChannelError)
  }
}

const wanted = new Map(['sh600519', 'hk00700', 'usaapl'].map((c) => [c, parseSymbol(c === 'usaapl' ? 'usAAPL' : c)]))
const QUOTE = `v_sh600519="${Array.from({ length: 85 }, (_, k) => (k === 30 ? '20250102150003' : '1')).join('~')}";`
const FQ = '{"code":0,"msg":"","data":{"sh600519":{"qfqday":[["2025-01-02","1","1","1","1","1",{},"0.1","1"]]}}}'
const text = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.json())

/** The sample with one `~` field, or one JSON token, swapped for arbitrary text. */
const mutated = (sample: string, sep: RegExp) =>
  fc.tuple(fc.nat(), fc.string()).map(([k, s]) => {
    const parts = sample.split(sep)
    parts[k % parts.length] = s
    return parts.join(sample.match(sep)?.[0] ?? '')
  })

describe('tencent parsers never throw anything but ChannelError', () => {
  it('parseQuotes', () => {
    fc.assert(fc.property(fc.oneof(text, mutated(QUOTE, /~/), text.map((t) => `v_sh600519="${t}";`)), (t) => onlyChannelErrors(() => parseQuotes(t, wanted))), { numRuns: 500 })
  })

  it('parseFqkline', () => {
    const json = fc.anything().map((x) => JSON.stringify({ code: 0, data: { sh600519: { qfqday: x } } }) ?? '')
    fc.assert(fc.property(fc.oneof(text, json, mutated(FQ, /,/)), fc.constantFrom<RowUnits>('ashare', 'plain'), (t, u) => onlyChannelErrors(() => parseFqkline(t, 'sh600519', 'day', u))), { numRuns: 500 })
  })

  it('parseMkline', () => {
    const json = fc.anything().map((x) => JSON.stringify({ code: 0, data: { sh600519: { m5: [x] } } }) ?? '')
    fc.assert(fc.property(fc.oneof(text, json), (t) => onlyChannelErrors(() => parseMkline(t, 'sh600519', 'm5'))), { numRuns: 500 })
  })
})
