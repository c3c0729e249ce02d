import { afterEach, describe, expect, it } from 'vitest'
import { parseSymbol } from '../../domain/symbols'
import { createEmulatorFetch, setClock } from '../../emulator/control'
import { market } from '../../emulator/market'
import { failureKind, fakeContext } from '../testkit'
import { fetchStockGet, parseSpeed, parseStockGet, stockGetUrl } from './stock-get'
import captured600519 from '../../../test/fixtures/push2/stock-get-sh600519-2026-09-14-140917.json?raw'

// The sample of upstreams.md §1.4 (invented values, real ids).
const SAMPLE = {
  rc: 0, rt: 4, svr: 177617938, lt: 1, full: 1, dlmkts: '',
  data: {
    f11: 1519.5, f12: 4, f13: 1519.8, f14: 1, f15: 1519.9, f16: 5, f17: 1519.98, f18: 2, f19: 1519.99, f20: 3,
    f31: 1521.0, f32: 10, f33: 1520.88, f34: 3, f35: 1520.5, f36: 1, f37: 1520.1, f38: 2, f39: 1520.0, f40: 6,
    f43: 1520.0, f44: 1525.0, f45: 1505.2, f46: 1510.0, f47: 21345, f48: 3243567890.0, f49: 11020, f50: 0.92,
    f51: 1659.35, f52: 1357.65, f57: '600519', f58: '贵州茅台', f59: 2, f60: 1508.5, f71: 1519.62,
    f84: 1256197800.0, f85: 1256197800.0, f86: 1735801203, f116: 1909420656000.0, f117: 1909420656000.0,
    f161: 10325, f162: 21.8, f163: 23.1, f164: 22.35, f167: 7.85, f168: 0.17, f169: 11.5, f170: 0.76, f171: 1.31,
    f191: -12.5, f192: -15,
  },
}
const moutai = parseSymbol('sh600519')
// The sample's own session (f86 is 2025-01-02 15:00:03): a clock just before the close.
const AT = Date.parse('2025-01-02T14:59:59+08:00')
const text = (data: object | null) => JSON.stringify({ ...SAMPLE, data })

describe('stockGetUrl', () => {
  it('asks for the book ids explicitly (upstreams.md §1.4 note) with fltt=2', () => {
    const u = new URL(stockGetUrl('1.600519'))
    expect(u.searchParams.get('secid')).toBe('1.600519')
    expect(u.searchParams.get('fltt')).toBe('2')
    const fields = u.searchParams.get('fields')!.split(',')
    for (const id of ['f11', 'f20', 'f31', 'f40', 'f43', 'f164', 'f167', 'f168']) expect(fields).toContain(id)
  })
})

describe('parseStockGet', () => {
  it('reads the book best first and the profile in our units', () => {
    const { book, snapshot: s } = parseStockGet(text(SAMPLE.data), moutai, AT, 0.05)
    expect(book).toEqual({
      code: 'sh600519', time: '2025-01-02 15:00:03', last: 1520, preClose: 1508.5, halted: false, traded: true,
      bids: [[1519.99, 3], [1519.98, 2], [1519.9, 5], [1519.8, 1], [1519.5, 4]],
      asks: [[1520, 6], [1520.1, 2], [1520.5, 1], [1520.88, 3], [1521, 10]],
    })
    expect(s).toMatchObject({
      status: 'trading', volume: 21345, amount: 324356.79, total_market_cap: 19094.21, float_market_cap: 19094.21,
      pe_ttm: 22.35, pe_dynamic: 21.8, pe_static: 23.1, pb: 7.85, turnover: 0.17, limit_up: 1659.35, limit_down: 1357.65,
      volume_ratio: 0.92, amplitude: 1.31, outer_volume: 11020, inner_volume: 10325, rise_speed: 0.05, currency: 'CNY',
    })
  })

  it('reads "-" as an empty level or a halted price', () => {
    const halted = { ...SAMPLE.data, f43: '-', f44: '-', f45: '-', f46: '-', f47: '-', f48: '-', f169: '-', f170: '-' } as Record<string, unknown>
    for (const id of ['f11', 'f12', 'f13', 'f14', 'f15', 'f16', 'f17', 'f18', 'f19', 'f20', 'f31', 'f32', 'f33', 'f34', 'f35', 'f36', 'f37', 'f38', 'f39', 'f40']) halted[id] = '-'
    const { snapshot } = parseStockGet(text(halted), moutai, AT, 1)
    expect(snapshot).toMatchObject({ status: 'halted', last: 1508.5, open: null, volume: 0, rise_speed: null, order_imbalance: null })
  })

  it('rejects what cannot be right', () => {
    expect(failureKind(() => parseStockGet(text(null), moutai, AT))).toBe('empty')
    expect(failureKind(() => parseStockGet(text({ ...SAMPLE.data, f57: '000001' }), moutai, AT))).toBe('malformed')
    expect(failureKind(() => parseStockGet(text({ ...SAMPLE.data, f19: 1520.5 }), moutai, AT))).toBe('malformed')
    expect(failureKind(() => parseStockGet(text({ ...SAMPLE.data, f17: '-', f18: '-' }), moutai, AT))).toBe('malformed')
    expect(failureKind(() => parseStockGet(text({ ...SAMPLE.data, f51: 1515 }), moutai, AT))).toBe('malformed')
    expect(failureKind(() => parseStockGet(text({ ...SAMPLE.data, f164: 'abc' }), moutai, AT))).toBe('malformed')
  })

  it('finds f22 in the ulist row of the secid', () => {
    const body = JSON.stringify({ rc: 0, data: { total: 1, diff: [{ f12: '600519', f13: 1, f22: -0.12 }] } })
    expect(parseSpeed(body, '1.600519')).toBe(-0.12)
    expect(parseSpeed(body, '0.600519')).toBeNull()
  })
})

describe('fetchStockGet', () => {
  afterEach(() => setClock(null))

  it('reads the emulator, whose book is the model\'s', async () => {
    const now = Date.parse('2026-11-20T10:30:00+08:00')
    setClock(now)
    const ctx = { fetch: createEmulatorFetch(market), timeoutMs: 2000 }
    const { book, snapshot } = await fetchStockGet(ctx, moutai, now, true)
    const q = market.live(market.byCode('sh600519')!, now)
    expect(book.bids).toEqual(q.book.bids.map(([p, v]) => [p, v / 100]))
    expect(book.last).toBe(q.bar.close)
    expect(typeof snapshot.rise_speed).toBe('number')
  })

  it('keeps the snapshot when only the speed request fails', async () => {
    const { ctx } = fakeContext((url) => (url.includes('ulist') ? { status: 502, body: '' } : { body: text(SAMPLE.data) }))
    expect((await fetchStockGet(ctx, moutai, AT, true)).snapshot.rise_speed).toBeNull()
  })
})

// A real stock/get answer in session (fltt=2, 2026-09-14 14:09:17, fewer fields than we ask: no
// book, no f71/f84/f85/f162/f163): test/fixtures/push2/SOURCE.md.
describe('stock/get in session (captured answer)', () => {
  const now = Date.parse('2026-09-14T14:09:17+08:00')

  it('reads the session line; what the request did not ask for is null or an empty level', () => {
    const { book, snapshot } = parseStockGet(captured600519, parseSymbol('sh600519'), now)
    expect(snapshot).toMatchObject({
      time: '2026-09-14 14:09:17', status: 'trading', last: 1275.38, pre_close: 1275.16, open: 1277.27, high: 1285.53, low: 1270.36,
      change: 0.22, change_pct: 0.02, volume: 13_333, amount: 170_293.53, turnover: 0.11, amplitude: 1.19, volume_ratio: 0.65,
      pe_ttm: 19.58, pb: 6.35, total_market_cap: 15_943.29, limit_up: 1402.68, limit_down: 1147.64,
      avg_price: null, pe_static: null, total_shares: null, order_imbalance: null,
    })
    expect(book.traded).toBe(true)
    expect(book.bids.every(([p, v]) => p === null && v === 0)).toBe(true)
  })

  it('adds up: change, amplitude and the ±10 % limits from the previous close; amount in the range; cap a whole share count', () => {
    const d = JSON.parse(captured600519).data
    expect(d.f43 - d.f60).toBeCloseTo(d.f169, 2)
    expect(((d.f44 - d.f45) / d.f60) * 100).toBeCloseTo(d.f171, 2)
    expect(d.f60 * 1.1).toBeCloseTo(d.f51, 1)
    expect(d.f60 * 0.9).toBeCloseTo(d.f52, 1)
    const vwap = d.f48 / (d.f47 * 100)
    expect(vwap).toBeGreaterThan(d.f45)
    expect(vwap).toBeLessThan(d.f44)
    expect(d.f116 / d.f43).toBeCloseTo(Math.round(d.f116 / d.f43), 3)
  })
})
