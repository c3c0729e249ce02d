import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ChannelError } from '../errors'
import { failureKind, fakeContext } from '../testkit'
import { fetchMarketSnapshot, marketListUrl, parseMarketPage } from './market-list'
import capturedGainers from '../../../test/fixtures/push2/clist-sh-gainers-p1-2024-08-08-175620-jsonp.json?raw'

// Hand-written in the shape of upstreams.md §3.1 (np=1, fltt=2): keys out of numeric order, extras we did not ask for.
const MOUTAI = { f12: '600519', f13: 1, f14: '贵州茅台', f2: 1520.0, f5: 21345, f6: 3243567890.0, f15: 1525.0, f16: 1505.2, f17: 1510.0, f18: 1508.5, f124: 1735801203, f297: 20250102, f3: 0.76, f8: 0.17, f20: 1909420656000, f21: 1909420656000, f26: 20010827 }
const PINGAN = { f2: 11.32, f5: 856432, f6: 965432100.5, f12: '000001', f13: 0, f14: '平安银行', f15: 11.4, f16: 11.1, f17: 11.2, f18: 11.15, f124: 1735801203, f297: 20250102 }
const AIRONG = { f2: 30.5, f5: 1200, f6: 3660000, f12: '830799', f13: 0, f14: '艾融软件', f15: 31, f16: 30, f17: 30.2, f18: 30.1, f124: 1735801203, f297: 20250102 }
const HALTED = { f2: '-', f5: '-', f6: '-', f12: '000004', f13: 0, f14: '*ST国华', f15: '-', f16: '-', f17: '-', f18: 6.05, f124: 1735801203, f297: 20250102 }

const page = (total: number, diff: unknown) => JSON.stringify({ rc: 0, rt: 6, svr: 181669434, lt: 1, full: 1, dlmkts: '', data: { total, diff } })
const NULL_PAGE = '{"rc":0,"rt":6,"svr":181669434,"lt":1,"full":1,"dlmkts":"","data":null}'

describe('marketListUrl', () => {
  it('asks for every A-share board, by code, with the fields we read', () => {
    expect(marketListUrl(3)).toBe(
      'https://push2.eastmoney.com/api/qt/clist/get?pn=3&pz=100&po=1&np=1&fltt=2&invt=2&fid=f12' +
        '&fs=m%3A0%20t%3A6%2Cm%3A0%20t%3A80%2Cm%3A1%20t%3A2%2Cm%3A1%20t%3A23%2Cm%3A0%20t%3A81%20s%3A2048' +
        '&fields=f2,f5,f6,f8,f12,f13,f14,f15,f16,f17,f18,f20,f21,f26,f124,f297'
    )
    expect(new URL(marketListUrl(1)).searchParams.get('fs')).toBe('m:0 t:6,m:0 t:80,m:1 t:2,m:1 t:23,m:0 t:81 s:2048')
  })
})

describe('parseMarketPage', () => {
  it('maps rows by key to canonical codes, volume in shares', () => {
    const { total, rows } = parseMarketPage(page(5432, [MOUTAI, PINGAN, AIRONG]))
    expect(total).toBe(5432)
    expect(rows[0]).toEqual({ code: 'sh600519', name: '贵州茅台', date: '2025-01-02', open: 1510, high: 1525, low: 1505.2, close: 1520, preClose: 1508.5, volume: 2134500, amount: 3243567890, halted: false, traded: true, totalShares: 1256197800, floatShares: 1256197800, listDate: '2001-08-27', turnover: 0.17 })
    expect(rows[1].turnover).toBeNull()
    expect(rows.map((r) => r.code)).toEqual(['sh600519', 'sz000001', 'bj830799'])
  })

  it('reads a halted stock as zeros with its last close', () => {
    const [row] = parseMarketPage(page(1, [HALTED])).rows
    expect(row).toEqual({ code: 'sz000004', name: '*ST国华', date: '2025-01-02', open: 0, high: 0, low: 0, close: 0, preClose: 6.05, volume: 0, amount: 0, halted: true, traded: false, totalShares: null, floatShares: null, listDate: null, turnover: null })
  })

  it('reads share counts off the caps at the price they were valued at (the last close when halted)', () => {
    const [row] = parseMarketPage(page(1, [{ ...HALTED, f20: 605e7, f21: 302.5e7, f26: 19910114 }])).rows
    expect(row).toMatchObject({ totalShares: 1e9, floatShares: 5e8, listDate: '1991-01-14' })
  })

  it.each([
    ['float cap above total cap', { f21: 2e12 }, { totalShares: null, floatShares: null }],
    ['a zero cap', { f20: 0 }, { totalShares: null, floatShares: 1256197800 }],
    ['a listing date that is no date', { f26: 20011327 }, { listDate: null }],
    ['no listing date (0)', { f26: 0 }, { listDate: null }],
    ['a negative turnover rate', { f8: -0.5 }, { turnover: null }],
  ])('reads %s as null for that stock, keeping its prices', (_, patch, want) => {
    const [row] = parseMarketPage(page(1, [{ ...MOUTAI, ...patch }])).rows
    expect(row).toMatchObject({ close: 1520, ...want })
  })

  it('rejects text where a cap or a listing date belongs (the field map moved)', () => {
    expect(failureKind(() => parseMarketPage(page(1, [{ ...MOUTAI, f20: '贵州' }])))).toBe('malformed')
    expect(failureKind(() => parseMarketPage(page(1, [{ ...MOUTAI, f26: '贵州茅台' }])))).toBe('malformed')
  })

  it('accepts diff as an object keyed by position (np=2), and numeric strings', () => {
    const { rows } = parseMarketPage(page(2, { 0: { ...PINGAN, f2: '11.32', f13: '0' }, 1: MOUTAI }))
    expect(rows.map((r) => [r.code, r.close])).toEqual([['sz000001', 11.32], ['sh600519', 1520]])
  })

  it('falls back to the Beijing date of f124 without f297', () => {
    const { f297: _, ...noDate } = MOUTAI
    expect(parseMarketPage(page(1, [noDate])).rows[0].date).toBe('2025-01-02')
  })

  it('reads data:null as nothing', () => {
    expect(parseMarketPage(NULL_PAGE)).toEqual({ total: 0, rows: [] })
  })

  it.each([
    ['high below low', [{ ...MOUTAI, f15: 1500 }]],
    ['open above high', [{ ...MOUTAI, f17: 1530 }]],
    ['close below low', [{ ...MOUTAI, f2: 1500 }]],
    ['a price "-" on a traded stock', [{ ...MOUTAI, f17: '-' }]],
    ['a zero price', [{ ...MOUTAI, f16: 0, f17: 0 }]],
    ['negative volume', [{ ...MOUTAI, f5: -1 }]],
    ['amount in 10k CNY', [{ ...MOUTAI, f6: 324356.789 }]],
    ['volume in shares', [{ ...MOUTAI, f5: 2134500 }]],
    ['amount without volume', [{ ...MOUTAI, f5: 0 }]],
    ['a code of five digits', [{ ...MOUTAI, f12: '60051' }]],
    ['a non-A-share market', [{ ...MOUTAI, f13: 116 }]],
    ['a bad trade date', [{ ...MOUTAI, f297: 20250231 }]],
    ['no date at all', [{ ...MOUTAI, f297: '-', f124: '-' }]],
    ['a row that is not an object', ['600519']],
  ])('rejects %s', (_why, diff) => {
    expect(failureKind(() => parseMarketPage(page(1, diff)))).toBe('malformed')
  })

  it.each([
    ['no total', '{"rc":0,"data":{"diff":[]}}'],
    ['a fractional total', '{"rc":0,"data":{"total":1.5,"diff":[]}}'],
    ['no diff', '{"rc":0,"data":{"total":3}}'],
    ['HTML', '<html>502</html>'],
  ])('rejects a page with %s', (_why, text) => {
    expect(failureKind(() => parseMarketPage(text))).toBe('malformed')
  })

  it('throws nothing but ChannelError on random rows', () => {
    const cell = fc.oneof(fc.double(), fc.integer(), fc.constantFrom('-', '', '600519', '1.5'), fc.constant(null))
    const row = fc.dictionary(fc.constantFrom('f2', 'f5', 'f6', 'f12', 'f13', 'f14', 'f15', 'f16', 'f17', 'f18', 'f124', 'f297'), cell)
    fc.assert(
      fc.property(fc.array(row, { maxLength: 4 }), fc.oneof(fc.integer(), fc.string()), (diff, total) => {
        try {
          parseMarketPage(JSON.stringify({ rc: 0, data: { total, diff } }))
        } catch (e) {
          expect(e).toBeInstanceOf(ChannelError)
        }
      })
    )
  })
})

// ---------------------------------------------------------------------------------------------
// The walk, against a fake list of `count` SZ stocks served `size` rows per page.

const stock = (n: number) => ({ ...PINGAN, f12: String(n).padStart(6, '0'), f14: `s${n}` })

interface ListOptions {
  size?: number
  total?: (pn: number) => number
  rows?: (pn: number, rows: unknown[]) => unknown[]
  delayMs?: number
}

function fakeList(count: number, opts: ListOptions = {}) {
  const size = opts.size ?? 100
  let inFlight = 0
  let peak = 0
  const fake = fakeContext(async (url) => {
    peak = Math.max(peak, ++inFlight)
    await new Promise((r) => setTimeout(r, opts.delayMs ?? 0))
    inFlight--
    const pn = Number(new URL(url).searchParams.get('pn'))
    let rows: unknown[] = Array.from({ length: count }, (_, i) => stock(i + 1)).slice((pn - 1) * size, pn * size)
    if (opts.rows) rows = opts.rows(pn, rows)
    return { body: rows.length ? page(opts.total?.(pn) ?? count, rows) : NULL_PAGE }
  })
  return { ...fake, peak: () => peak, pages: () => fake.calls.map((c) => Number(new URL(c.url).searchParams.get('pn'))) }
}

// A real clist/get page (fltt=2) asked with other fields than ours: no f124/f297
// (test/fixtures/push2/SOURCE.md).
describe('parseMarketPage on a captured page', () => {
  const rows = () => {
    const body = capturedGainers.slice(capturedGainers.indexOf('(') + 1, capturedGainers.lastIndexOf(')'))
    return JSON.parse(body).data.diff as Array<Record<string, number | string>>
  }

  it('confirms the units we assume: f5 in lots, caps valued at f2 (a whole share count, rounded to the yuan), "-" where nothing applies', () => {
    for (const r of rows()) {
      const [last, high, low, lots, amount] = [r.f2, r.f15, r.f16, r.f5, r.f6] as number[]
      const vwap = amount / (lots * 100)
      expect(vwap).toBeGreaterThanOrEqual(low * 0.999)
      expect(vwap).toBeLessThanOrEqual(high * 1.001)
      // A whole share count at f2, the cap rounded to the yuan.
      for (const cap of [r.f20, r.f21] as number[]) expect(Math.abs(cap - Math.round(cap / last) * last)).toBeLessThanOrEqual(0.5)
      expect(r.f128).toBe('-')
    }
  })

  it('refuses rows that carry no trade date rather than guess one (the page asked neither f124 nor f297)', () => {
    expect(() => parseMarketPage(capturedGainers)).toThrow(/no trade date/)
  })
})

describe('fetchMarketSnapshot', () => {
  it('reads page 1, then the rest with at most two in flight, and sorts by code', async () => {
    const list = fakeList(250, { delayMs: 5 })
    const rows = await fetchMarketSnapshot(list.ctx)
    expect(list.pages().sort()).toEqual([1, 2, 3])
    expect(list.peak()).toBe(2)
    expect(rows).toHaveLength(250)
    expect(rows[0].code).toBe('sz000001')
    expect(rows[249].code).toBe('sz000250')
  })

  it('asks once when page 1 holds the whole market', async () => {
    const list = fakeList(42)
    expect(await fetchMarketSnapshot(list.ctx)).toHaveLength(42)
    expect(list.pages()).toEqual([1])
  })

  it('follows a server that caps the page size below pz', async () => {
    const list = fakeList(250, { size: 50 })
    expect(await fetchMarketSnapshot(list.ctx)).toHaveLength(250)
    expect(list.pages().sort()).toEqual([1, 2, 3, 4, 5])
  })

  it('keeps a stock listed twice once', async () => {
    const list = fakeList(250, { rows: (pn, rows) => (pn === 2 ? [stock(1), ...rows.slice(1)] : rows) })
    const rows = await fetchMarketSnapshot(list.ctx)
    expect(rows).toHaveLength(249)
    expect(rows.filter((r) => r.code === 'sz000001')).toHaveLength(1)
  })

  it.each([
    ['a total that changes between pages', { total: (pn: number) => (pn === 3 ? 251 : 250) }],
    ['a short page', { rows: (pn: number, rows: unknown[]) => (pn === 2 ? rows.slice(1) : rows) }],
    ['a short last page', { rows: (pn: number, rows: unknown[]) => (pn === 3 ? rows.slice(1) : rows) }],
    ['a page gone past the end', { rows: (pn: number, rows: unknown[]) => (pn === 3 ? [] : rows) }],
    ['a bad row on a later page', { rows: (pn: number, rows: unknown[]) => (pn === 3 ? [{ ...stock(201), f15: 1 }, ...rows.slice(1)] : rows) }],
    ['an implausible total', { total: () => 100_000 }],
  ] as Array<[string, ListOptions]>)('refuses %s as malformed', async (_why, opts) => {
    await expect(fetchMarketSnapshot(fakeList(250, opts).ctx)).rejects.toMatchObject({ name: 'ChannelError', kind: 'malformed', channel: 'eastmoney' })
  })

  it('reports an empty list as empty, and an upstream failure on any page as that failure', async () => {
    await expect(fetchMarketSnapshot(fakeList(0).ctx)).rejects.toMatchObject({ kind: 'empty' })
    const fake = fakeContext((url) => (url.includes('pn=2&') ? { status: 502, body: 'Bad Gateway' } : { body: page(250, Array.from({ length: 100 }, (_, i) => stock(i + 1))) }))
    await expect(fetchMarketSnapshot(fake.ctx)).rejects.toMatchObject({ kind: 'http' })
  })
})
