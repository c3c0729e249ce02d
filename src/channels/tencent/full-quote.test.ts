import { afterEach, describe, expect, it } from 'vitest'
import { parseSymbol } from '../../domain/symbols'
import { createEmulatorFetch, setClock } from '../../emulator/control'
import { market } from '../../emulator/market'
import { failureKind, fakeContext, gbk } from '../testkit'
import { fetchStockGet } from '../eastmoney/stock-get'
import { fetchFullQuote, fullQuoteOf, parseFullQuote } from './full-quote'
import { quoteLines } from './quotes'

// The 85-field sample of upstreams.md §1.1.1 (invented values, real positions).
const MOUTAI =
  'v_sh600519="1~贵州茅台~600519~1520.00~1508.50~1510.00~21345~11020~10325~1519.99~3~1519.98~2~1519.90~5~1519.80~1~1519.50~4~1520.00~6~1520.10~2~1520.50~1~1520.88~3~1521.00~10~~20250102150003~11.50~0.76~1525.00~1505.20~1520.00/21345/3243567890~21345~324357~0.17~22.35~~1525.00~1505.20~1.31~19094.22~19094.22~7.85~1659.35~1357.65~0.92~-15~1519.62~21.80~23.10~~~1.10~324356.789~0.0000~0~~GP-A~3.21~2.05~3.50~35.12~28.40~1600.00~1380.00~0.55~1.90~-3.20~1256197800~1256197800~-12.30~4.50~1256197800~~~15.20~-0.10~~CNY~0~___D__F__N";'

function edit(changes: Record<number, string>): string {
  const m = /^v_([^=]+)="(.*)";$/.exec(MOUTAI)!
  const f = m[2].split('~')
  for (const [i, v] of Object.entries(changes)) f[+i] = v
  return `v_${m[1]}="${f.join('~')}";`
}

const moutai = parseSymbol('sh600519')
// The sample's own session (its time is 2025-01-02 15:00:03): a clock just before the close.
const AT = Date.parse('2025-01-02T14:59:59+08:00')
// The emulator's clock in the tests below: inside a session.
const SESSION = Date.parse('2026-11-20T10:30:00+08:00')

// A real qt.gtimg.cn line (600519 after the close of 2026-09-11, 88 fields): test/fixtures/tencent/SOURCE.md.
const CAPTURED_AT = Date.parse('2026-09-11T16:15:00+08:00')
const CAPTURED = Object.values(import.meta.glob('/test/fixtures/tencent/qt-sh600519-2026-09-11.txt', { query: '?raw', import: 'default', eager: true }))[0]
// Real lines of 001216 (SZ main), 688981 (STAR) and the SSE index after the close of 2026-09-24.
const CAPTURED_0924 = Object.values(import.meta.glob('/test/fixtures/tencent/qt-sz001216-sh688981-sh000001-2026-09-24.txt', { query: '?raw', import: 'default', eager: true }))[0]

describe('fullQuoteOf', () => {
  const lineOf = (statement: string) => quoteLines(statement)[0]

  it('reads a pooled line once, and works out its status again at each instant', () => {
    const line = lineOf(MOUTAI)
    const inSession = fullQuoteOf([line], moutai, AT)
    expect(fullQuoteOf([line], moutai, AT)).toBe(inSession)
    expect(inSession.snapshot.status).toBe('trading')
    // The same line after the close: the same book and numbers, the status of that instant.
    const later = fullQuoteOf([line], moutai, Date.parse('2025-01-02T15:30:00+08:00'))
    expect(later.snapshot.status).toBe('closed')
    expect(later.book).toBe(inSession.book)
    expect({ ...later.snapshot, status: 'trading' }).toEqual(inSession.snapshot)
    expect(parseFullQuote(MOUTAI, moutai, Date.parse('2025-01-02T15:30:00+08:00'))).toEqual(later)
  })
})

describe('parseFullQuote', () => {
  it('reads the book (lots) and the profile fields by position', () => {
    const { book, snapshot: s } = parseFullQuote(MOUTAI, moutai, AT)
    expect(book).toEqual({
      code: 'sh600519', time: '2025-01-02 15:00:03', last: 1520, preClose: 1508.5, halted: false, traded: true,
      bids: [[1519.99, 3], [1519.98, 2], [1519.9, 5], [1519.8, 1], [1519.5, 4]],
      asks: [[1520, 6], [1520.1, 2], [1520.5, 1], [1520.88, 3], [1521, 10]],
    })
    expect(s).toMatchObject({
      code: 'sh600519', name: '贵州茅台', status: 'trading', security_type: 'sh_main', currency: 'CNY', last: 1520, change: 11.5, change_pct: 0.76,
      volume: 21345, amount: 324357, turnover: 0.17, pe_ttm: 22.35, pe_dynamic: 21.8, pe_static: 23.1, pb: 7.85,
      float_market_cap: 19094.22, total_market_cap: 19094.22, limit_up: 1659.35, limit_down: 1357.65, volume_ratio: 0.92,
      amplitude: 1.31, outer_volume: 11020, inner_volume: 10325, float_shares: 1256197800, total_shares: 1256197800, avg_price: 1519.62,
      rise_speed: null,
    })
    expect(s.order_imbalance).toBeCloseTo(((15 - 22) / 37) * 100, 2)
  })

  it('rejects what cannot be right', () => {
    expect(failureKind(() => parseFullQuote(MOUTAI, parseSymbol('sz000001'), AT))).toBe('empty')
    expect(failureKind(() => parseFullQuote(MOUTAI.replace('v_sh600519', 'v_sz000001'), parseSymbol('sz000001'), AT))).toBe('malformed')
    // Bids above asks, a level with a price and no volume, rising bids, a truncated record, last past the limit.
    expect(failureKind(() => parseFullQuote(edit({ 9: '1520.50' }), moutai, AT))).toBe('malformed')
    expect(failureKind(() => parseFullQuote(edit({ 12: '0' }), moutai, AT))).toBe('malformed')
    expect(failureKind(() => parseFullQuote(edit({ 11: '1519.995' }), moutai, AT))).toBe('malformed')
    expect(failureKind(() => parseFullQuote(MOUTAI.replace(/~1256197800~-12\.30.*";$/, '";'), moutai, AT))).toBe('malformed')
    expect(failureKind(() => parseFullQuote(edit({ 47: '1515.00' }), moutai, AT))).toBe('malformed')
    expect(failureKind(() => parseFullQuote(edit({ 30: '2025-01-02' }), moutai, AT))).toBe('malformed')
  })

  it('reads a suspended line (field 40 S) as halted with an empty book, and the same zeros without the flag as not halted', () => {
    const zeros: Record<number, string> = { 3: '1508.50', 5: '0.00', 6: '0', 7: '0', 8: '0', 31: '0.00', 32: '0.00', 33: '0.00', 34: '0.00', 37: '0' }
    for (let k = 9; k <= 28; k++) zeros[k] = k % 2 ? '0.00' : '0'
    const { book, snapshot } = parseFullQuote(edit({ ...zeros, 40: 'S' }), moutai, AT)
    expect(snapshot).toMatchObject({ status: 'halted', last: 1508.5, open: null, high: null, low: null, order_imbalance: null })
    expect([...book.bids, ...book.asks].every(([p, v]) => p === null && v === 0)).toBe(true)
    // No trade and no flag: a line re-stamped before the open, not a suspension.
    expect(parseFullQuote(edit(zeros), moutai, AT).snapshot).toMatchObject({ status: 'closed', last: 1508.5, open: null })
  })
})

describe('parseFullQuote on a captured line', () => {
  it('reads every position we serve as the real line has it', () => {
    const { book, snapshot: s } = parseFullQuote(CAPTURED, moutai, CAPTURED_AT)
    expect([book.time, book.last, book.preClose]).toEqual(['2026-09-11 16:15:00', 1275.16, 1285.13])
    // Best first, in lots; field 50 (-3) is bid lots minus ask lots over the five levels.
    expect(book.bids).toEqual([[1275.16, 9], [1275.13, 1], [1275.12, 1], [1275.1, 4], [1275.05, 1]])
    expect(book.asks).toEqual([[1276, 14], [1276.13, 1], [1276.15, 2], [1276.23, 1], [1276.46, 1]])
    expect(s).toMatchObject({
      name: '贵州茅台', status: 'closed', currency: 'CNY', last: 1275.16, change: -9.97, change_pct: -0.78, open: 1285.15,
      high: 1286.15, low: 1263.01, volume: 34801, amount: 443084, turnover: 0.28, pe_ttm: 19.57, pe_dynamic: 17.9, pe_static: 19.36,
      pb: 6.34, float_market_cap: 15940.54, total_market_cap: 15940.54, limit_up: 1413.64, limit_down: 1156.62, volume_ratio: 1.25,
      amplitude: 1.8, avg_price: 1273.18, outer_volume: 16486, inner_volume: 18315, float_shares: 1250081601, total_shares: 1250081601,
    })
  })

  it('adds up the way the units say it does', () => {
    const { snapshot: s } = parseFullQuote(CAPTURED, moutai, AT)
    // Outer + inner volume is the day's volume (lots); the limits are ±10% of the previous close.
    expect(s.outer_volume! + s.inner_volume!).toBe(s.volume)
    expect(s.limit_up).toBeCloseTo(s.pre_close * 1.1, 2)
    expect(s.limit_down).toBeCloseTo(s.pre_close * 0.9, 2)
    // Amount (10k CNY) over volume (lots of 100) is the average price; caps (100 million CNY) are shares × last.
    expect((s.amount! * 1e4) / (s.volume * 100)).toBeCloseTo(s.avg_price!, 0)
    expect((s.total_shares! * s.last) / 1e8).toBeCloseTo(s.total_market_cap!, 1)
    // Turnover (%) is volume over the float.
    expect(((s.volume * 100) / s.float_shares!) * 100).toBeCloseTo(s.turnover!, 2)
  })
})

describe('parseFullQuote on a captured STAR line', () => {
  it('reads a STAR stock\'s volumes as shares and serves them in lots like every other stock', () => {
    const { snapshot: s } = parseFullQuote(CAPTURED_0924, parseSymbol('sh688981'), AT)
    // Field 6 is 18660976 shares: field 35's 2246348480 CNY over it is the average price 120.38.
    expect(s).toMatchObject({ name: '中芯国际', security_type: 'star', last: 119.98, volume: 186_609.76, outer_volume: 87_749.52, inner_volume: 98_860.24, amount: 224635, turnover: 0.93, avg_price: 120.38 })
    expect((s.amount! * 1e4) / (s.volume * 100)).toBeCloseTo(s.avg_price!, 1)
    expect(((s.volume * 100) / s.float_shares!) * 100).toBeCloseTo(s.turnover!, 2)
    // The same arithmetic on the SZ main-board line of the same answer holds with lots as sent.
    const { snapshot: sz } = parseFullQuote(CAPTURED_0924, parseSymbol('sz001216'), AT)
    expect(sz).toMatchObject({ name: '华瓷股份', volume: 428580, outer_volume: 211159, inner_volume: 217421, avg_price: 28.53 })
    expect((sz.amount! * 1e4) / (sz.volume * 100)).toBeCloseTo(sz.avg_price!, 1)
  })
})

describe('fetchFullQuote', () => {
  afterEach(() => setClock(null))

  it('decodes GBK from qt.gtimg.cn', async () => {
    const { ctx, calls } = fakeContext(() => ({ body: gbk(MOUTAI + '\n') }))
    expect((await fetchFullQuote(ctx, moutai, AT)).snapshot.name).toBe('贵州茅台')
    expect(calls.map((c) => c.url)).toEqual(['https://qt.gtimg.cn/q=sh600519'])
  })

  it('decodes the captured line from GBK bytes', async () => {
    const { ctx } = fakeContext(() => ({ body: gbk(CAPTURED) }))
    expect((await fetchFullQuote(ctx, moutai, AT)).snapshot).toMatchObject({ name: '贵州茅台', last: 1275.16 })
  })

  it('reads the emulator\'s line, whose valuation comes from the fundamentals model', async () => {
    setClock(Date.parse('2026-11-20T10:30:00+08:00'))
    const ctx = { fetch: createEmulatorFetch(market), timeoutMs: 2000 }
    const { snapshot: s } = await fetchFullQuote(ctx, moutai, SESSION)
    expect(s.pe_ttm).toBeGreaterThan(5)
    expect(s.pb).toBeGreaterThan(0)
    expect(s.limit_up! > s.last && s.limit_down! < s.last).toBe(true)
    expect(s.outer_volume! + s.inner_volume!).toBe(s.volume)
  })

  it('agrees with Eastmoney\'s stock/get on a STAR stock\'s volume in the emulator (lots in both views)', async () => {
    setClock(Date.parse('2026-11-20T10:30:00+08:00'))
    const ctx = { fetch: createEmulatorFetch(market), timeoutMs: 2000 }
    const smic = parseSymbol('sh688981')
    const [tencentView, eastmoneyView] = await Promise.all([fetchFullQuote(ctx, smic, SESSION), fetchStockGet(ctx, smic, SESSION)])
    expect(tencentView.snapshot.volume).toBeGreaterThan(0)
    expect(tencentView.snapshot.volume).toBeCloseTo(eastmoneyView.snapshot.volume, 0)
    expect(tencentView.snapshot.outer_volume! + tencentView.snapshot.inner_volume!).toBeCloseTo(tencentView.snapshot.volume, 1)
  })

  it('refuses other markets without calling out', async () => {
    const { ctx, calls } = fakeContext(() => ({ body: '' }))
    await expect(fetchFullQuote(ctx, parseSymbol('hk00700'), SESSION)).rejects.toMatchObject({ kind: 'unsupported' })
    expect(calls).toHaveLength(0)
  })
})
