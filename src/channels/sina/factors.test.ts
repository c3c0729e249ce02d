import { describe, expect, it } from 'vitest'
import { parseSymbol } from '../../domain/symbols'
import type { Bar } from '../../domain/bar'
import { fakeContext, failureKind } from '../testkit'
import { applyFactors, fetchFactors, parseFactors, priceDecimals } from './factors'

const QUOTED = 'var sh600519qfq={"total":3,"data":[{"d":"2025-06-20","f":"1.000000"},{"d":"2024-06-21","f":"1.012345"},{"d":"2001-08-27","f":"1.250000"}]}'
const BARE = 'var sh600519qfq={total:3,data:[{d:"2025-06-20",f:"1.000000"},{d:"2024-06-21",f:"1.012345"},{d:"2001-08-27",f:"1.250000"}]}\n/* cached */'

const bar = (date: string, close: number): Bar => ({ date, open: close, close, high: close, low: close, volume: 100, amount: close * 100, turnover: null })
const kind = failureKind

describe('parseFactors', () => {
  it('reads quoted and bare keys alike, newest first', () => {
    const expected = [
      { date: '2025-06-20', factor: 1 },
      { date: '2024-06-21', factor: 1.012345 },
      { date: '2001-08-27', factor: 1.25 },
    ]
    expect(parseFactors(QUOTED)).toEqual(expected)
    expect(parseFactors(BARE)).toEqual(expected)
  })

  it('reads numeric factors and an empty list', () => {
    expect(parseFactors('var x={total:1,data:[{d:"2025-06-20",f:1}]}')).toEqual([{ date: '2025-06-20', factor: 1 }])
    expect(parseFactors('var x={total:0,data:[]}')).toEqual([])
  })

  it.each([
    ['garbage', '<html>'],
    ['no data array', 'var x={total:0}'],
    ['a bad date', 'var x={data:[{d:"20250620",f:"1"}]}'],
    ['a zero factor', 'var x={data:[{d:"2025-06-20",f:"0"}]}'],
    ['a non-numeric factor', 'var x={data:[{d:"2025-06-20",f:"one"}]}'],
    ['oldest first', 'var x={data:[{d:"2024-06-21",f:"1.01"},{d:"2025-06-20",f:"1"}]}'],
  ])('rejects %s as malformed', (_, text) => {
    expect(kind(() => parseFactors(text))).toBe('malformed')
  })
})

describe('applyFactors', () => {
  const factors = parseFactors(QUOTED)

  it('divides each bar by the factor in force on its date and rounds to the price decimals', () => {
    const out = applyFactors([bar('2024-06-20', 1500), bar('2024-06-21', 1500), bar('2025-06-19', 1500), bar('2025-06-20', 1500)], factors, 2)
    expect(out.map((b) => b.close)).toEqual([1200, 1481.71, 1481.71, 1500])
    expect(out[0].volume).toBe(100)
    expect(out[0].amount).toBe(150_000)
  })

  it('uses the oldest factor from its own date on', () => {
    expect(applyFactors([bar('2001-08-27', 10)], factors, 3)[0].close).toBe(8)
  })

  it('means factor 1 with no factors, still rounded', () => {
    expect(applyFactors([bar('2025-01-02', 3.9004)], [], 3)[0].close).toBe(3.9)
  })

  it('rejects a bar older than every factor', () => {
    expect(kind(() => applyFactors([bar('2000-01-04', 10)], factors, 2))).toBe('malformed')
  })

  it('rounds 3 decimals for ETFs and bonds, 2 otherwise', () => {
    expect(['sh510300', 'sh113050', 'sh600519', 'sh000001'].map((c) => priceDecimals(parseSymbol(c)))).toEqual([3, 3, 2, 2])
  })
})

describe('fetchFactors', () => {
  it('asks finance.sina.com.cn with the Referer', async () => {
    const { ctx, calls } = fakeContext(() => ({ body: QUOTED }))
    expect(await fetchFactors('sh600519', ctx)).toHaveLength(3)
    expect(calls).toEqual([{ url: 'https://finance.sina.com.cn/realstock/company/sh600519/qfq.js', headers: { referer: 'https://finance.sina.com.cn/' } }])
  })

  it('reads a 404 as no corporate actions', async () => {
    const { ctx } = fakeContext(() => ({ status: 404, body: 'not found' }))
    expect(await fetchFactors('sh600519', ctx)).toEqual([])
  })

  it('fails on other HTTP errors', async () => {
    const { ctx } = fakeContext(() => ({ status: 500, body: '' }))
    await expect(fetchFactors('sh600519', ctx)).rejects.toMatchObject({ kind: 'http' })
  })
})

// Real qfq.js entries and raw day bars of sh600103 around its 2019-06-03 ex-date (test/fixtures/sina/SOURCE.md):
// `{"d":…, "f":…}` with a space, sixteen decimals, newest first.
describe('qfq.js on captured entries', () => {
  const text = (Object.values(import.meta.glob('/test/fixtures/sina/kline-qfq-sh600036-sh600103-2019.txt', { query: '?raw', import: 'default', eager: true }))[0] as string)
  const section = (s: string) => text.split(/^# /m).find((b) => b.startsWith(s))!.split('\n').filter((l) => l.startsWith('{'))
  it('reads the entries and forward-adjusts the raw bars: the ex-date rise is 4.77 %', () => {
    const factors = parseFactors(`var sh600103qfq={"total":2,"data":[${section('qfq.js').join(',')}]}`)
    expect(factors).toEqual([{ date: '2019-06-03', factor: 1 }, { date: '2007-01-18', factor: 1.3 }])
    const raw = section('scale=240 (sh600103)').map((l) => JSON.parse(l) as Record<string, string>)
      .map((r): Bar => ({ date: r.day, open: +r.open, close: +r.close, high: +r.high, low: +r.low, volume: +r.volume, amount: null, turnover: null }))
    const adj = applyFactors(raw, factors, 2)
    expect(adj.map((b) => b.close)).toEqual([2.34, 2.45])
    expect((2.45 / 1) / (3.04 / 1.3)).toBeCloseTo(1.0477, 4)
  })
})

describe('qfq.js as public clients describe the whole file', () => {
  // The shape several independent clients document (test/fixtures/sina/SOURCE.md): sixteen-decimal
  // factors, a 1900-01-01 sentinel carrying the oldest factor, `;` and a trailing comment.
  const WHOLE = 'var sz300592qfq={"total":3,"data":[\n{"d":"2026-07-09", "f":"1.0000000000000000"},\n{"d":"2025-07-16", "f":"1.0142673216863000"},\n{"d":"1900-01-01", "f":"1.0142673216863000"}]};\n/* {x} } */'
  it('reads the entries and ignores the trailing comment, braces and all', () => {
    expect(parseFactors(WHOLE)).toEqual([
      { date: '2026-07-09', factor: 1 }, { date: '2025-07-16', factor: 1.0142673216863 }, { date: '1900-01-01', factor: 1.0142673216863 },
    ])
  })
  it('the sentinel covers bars before the first ex-date', () => {
    expect(applyFactors([bar('2020-01-02', 10.14)], parseFactors(WHOLE), 2).map((b) => b.close)).toEqual([10])
  })
})
