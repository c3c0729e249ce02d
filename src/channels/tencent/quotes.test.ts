import { describe, expect, it } from 'vitest'
import { parseSymbol } from '../../domain/symbols'
import { fakeContext, gbk, failureKind } from '../testkit'
import { fetchQuotes, parseQuoteLines, parseQuotes, quoteLines, statements } from './quotes'
import { QUOTE_BATCH } from './qt-feed'

// Wire samples in the shapes of upstreams.md §1.1 (invented values).
const MOUTAI =
  'v_sh600519="1~贵州茅台~600519~1520.00~1508.50~1510.00~21345~11020~10325~1519.99~3~1519.98~2~1519.90~5~1519.80~1~1519.50~4~1520.00~6~1520.10~2~1520.50~1~1520.88~3~1521.00~10~~20250102150003~11.50~0.76~1525.00~1505.20~1520.00/21345/3243567890~21345~324357~0.17~22.35~~1525.00~1505.20~1.31~19094.22~19094.22~7.85~1659.35~1357.65~0.92~-15~1519.62~21.80~23.10~~~1.10~324356.789~0.0000~0~~GP-A~3.21~2.05~3.50~35.12~28.40~1600.00~1380.00~0.55~1.90~-3.20~1256197800~1256197800~-12.30~4.50~1256197800~~~15.20~-0.10~~CNY~0~___D__F__N";'
const TENCENT_HK =
  'v_hk00700="100~腾讯控股~00700~380.200~378.000~379.000~15234500.0~0~0~380.000~0~0~0~0~0~0~0~0~0~380.200~0~0~0~0~0~0~0~0~0~15234500.0~2025/01/02 16:08:09~2.200~0.58~383.000~376.400~380.200~15234500.0~5789123456.000~0~0~0~0~0~1.75~36000.12~36000.12~0~0~417.800~260.200~0~12.34~0~0~0~0~0~0~0~0.16~100.00~0~0~0~0~0~0~0~0~9500000000~9500000000~0~0~380.040";'
const APPLE =
  'v_usAAPL="200~苹果~AAPL.OQ~243.85~242.06~242.90~40234567~0~0~243.84~100~0~0~0~0~0~0~0~0~243.86~200~0~0~0~0~0~0~0~0~~2025-01-02 16:00:01~1.79~0.74~245.12~241.33~243.85~40234567~9812345678~~40.11~~245.12~241.33~1.57~36865.43~36865.43~~~~";'

/** Replaces `~` fields of a statement: the samples above stay the single source of each layout. */
function edit(statement: string, changes: Record<number, string>, rename?: string): string {
  const m = /^v_([^=]+)="(.*)";$/.exec(statement)!
  const f = m[2].split('~')
  for (const [i, v] of Object.entries(changes)) f[+i] = v
  return `v_${rename ?? m[1]}="${f.join('~')}";`
}

const SSE_INDEX = edit(MOUTAI, { 1: '上证指数', 2: '000001', 3: '3260.12', 4: '3240.50', 5: '3245.00', 6: '312345678', 33: '3270.00', 34: '3238.10', 37: '41234567', 38: '', 39: '' }, 'sh000001')
const UNTRADED = { 1: '平安银行', 2: '000001', 3: '11.15', 4: '11.15', 5: '0.00', 6: '0', 33: '0.00', 34: '0.00', 37: '0.00', 38: '0.00' }
const HALTED = edit(MOUTAI, { ...UNTRADED, 40: 'S' }, 'sz000001')

const inst = (code: string) => parseSymbol(code)
const wanted = (...codes: Array<[string, string]>) => new Map(codes.map(([tc, c]) => [tc.toLowerCase(), inst(c)]))
const decode = (s: string) => new TextDecoder('gbk').decode(gbk(s))
const kind = failureKind

// A real qt.gtimg.cn line (600519, 2026-09-11, 88 fields): test/fixtures/tencent/SOURCE.md.
const CAPTURED = Object.values(import.meta.glob('/test/fixtures/tencent/qt-sh600519-2026-09-11.txt', { query: '?raw', import: 'default', eager: true }))[0]

const CAPTURED_0924 = Object.values(import.meta.glob('/test/fixtures/tencent/qt-sz001216-sh688981-sh000001-2026-09-24.txt', { query: '?raw', import: 'default', eager: true }))[0]

describe('tencent parseQuoteLines', () => {
  const lineOf = (statement: string) => quoteLines(statement)[0]

  it('reads a pooled line once: the same line object gives the same quote, equal to a fresh read', () => {
    const line = lineOf(MOUTAI)
    const want = wanted(['sh600519', 'sh600519'])
    const first = parseQuoteLines([line], want).get('sh600519')
    expect(parseQuoteLines([line], want).get('sh600519')).toBe(first)
    expect(parseQuoteLines([lineOf(MOUTAI)], want).get('sh600519')).toEqual(first)
  })

  it('reads a line again for another instrument, and a line that does not add up every time', () => {
    const line = lineOf(MOUTAI)
    parseQuoteLines([line], wanted(['sh600519', 'sh600519']))
    const asIndex = parseQuoteLines([line], new Map([['sh600519', { ...inst('sh600519'), code: 'sh600519x' }]]))
    expect(asIndex.get('sh600519x')?.code).toBe('sh600519x')
    const bad = lineOf(edit(MOUTAI, { 33: '1400.00' }))
    for (let k = 0; k < 2; k++) expect(() => parseQuoteLines([bad], wanted(['sh600519', 'sh600519']))).toThrow()
  })
})

describe('tencent parseQuotes', () => {
  it('reads a captured three-line answer: lots for SZ and the index, shares already for STAR', () => {
    const m = parseQuotes(decode(CAPTURED_0924), wanted(['sz001216', 'sz001216'], ['sh688981', 'sh688981'], ['sh000001', 'sh000001']))
    expect(m.get('sz001216')).toMatchObject({ date: '2026-09-24', time: '16:14:30', last: 28.4, volume: 42_858_000, amount: 1_222_640_000, turnover: 17.36 })
    expect(m.get('sh688981')).toMatchObject({ last: 119.98, volume: 18_660_976, amount: 2_246_350_000, turnover: 0.93 })
    expect(m.get('sh000001')).toMatchObject({ name: '上证指数', last: 3888.37, volume: 43_853_041_200, turnover: 0.9 })
    // A stock's amount over its shares is an average price inside the day's range.
    for (const code of ['sz001216', 'sh688981']) {
      const q = m.get(code)!
      expect(q.amount! / q.volume).toBeGreaterThan(q.low)
      expect(q.amount! / q.volume).toBeLessThan(q.high)
    }
  })

  it('reads a captured A-share line: lots become shares, 10k CNY become CNY', () => {
    const q = parseQuotes(decode(CAPTURED), wanted(['sh600519', 'sh600519'])).get('sh600519')
    expect(q).toEqual({
      code: 'sh600519', name: '贵州茅台', date: '2026-09-11', time: '16:15:00', last: 1275.16, open: 1285.15, high: 1286.15,
      low: 1263.01, preClose: 1285.13, volume: 3_480_100, amount: 4_430_840_000, turnover: 0.28, halted: false, traded: true,
    })
    // Field 35 (`last/lots/CNY`) carries the exact amount: the 10k CNY of field 37 agree with it.
    expect(Math.abs(q!.amount! - 4_430_841_445)).toBeLessThan(5_000)
  })

  it('reads an A-share record in shares and CNY', () => {
    const q = parseQuotes(decode(MOUTAI), wanted(['sh600519', 'sh600519'])).get('sh600519')
    expect(q).toEqual({
      code: 'sh600519',
      name: '贵州茅台',
      date: '2025-01-02',
      time: '15:00:03',
      last: 1520,
      open: 1510,
      high: 1525,
      low: 1505.2,
      preClose: 1508.5,
      volume: 2_134_500,
      amount: 3_243_570_000,
      turnover: 0.17,
      halted: false,
      traded: true,
    })
  })

  it('gives an index null turnover', () => {
    const q = parseQuotes(SSE_INDEX, wanted(['sh000001', 'sh000001'])).get('sh000001')!
    expect(q.name).toBe('上证指数')
    expect(q.turnover).toBeNull()
    expect(q.volume).toBe(31_234_567_800)
    expect(q.amount).toBe(412_345_670_000)
  })

  it('reads the HK layout: shares, HKD, turnover at 59, slashed time', () => {
    const q = parseQuotes(decode(TENCENT_HK), wanted(['hk00700', 'hk00700'])).get('hk00700')!
    expect(q).toMatchObject({ name: '腾讯控股', date: '2025-01-02', time: '16:08:09', last: 380.2, preClose: 378, open: 379, high: 383, low: 376.4, volume: 15_234_500, amount: 5_789_123_456, turnover: 0.16 })
  })

  it('reads the US layout without turnover and maps usAAPL back to its canonical code', () => {
    const q = parseQuotes(decode(APPLE), wanted(['usAAPL', 'usAAPL'])).get('usAAPL')!
    expect(q).toMatchObject({ name: '苹果', date: '2025-01-02', time: '16:00:01', last: 243.85, volume: 40_234_567, amount: 9_812_345_678, turnover: null })
  })

  it('keys a US index by its canonical code', () => {
    const dji = edit(APPLE, { 1: '道琼斯', 2: '.DJI', 3: '42732.13', 4: '42544.22', 5: '42600.00', 33: '42800.00', 34: '42400.00' }, 'usDJI')
    expect([...parseQuotes(dji, wanted(['usDJI', 'us.DJI'])).keys()]).toEqual(['us.DJI'])
  })

  it('marks a suspended stock (field 40 S) halted: last = prev close, zero prices pass', () => {
    const q = parseQuotes(HALTED, wanted(['sz000001', 'sz000001'])).get('sz000001')!
    expect(q).toMatchObject({ halted: true, traded: false, last: 11.15, open: 0, high: 0, low: 0, volume: 0 })
  })

  it('reads the same zeros without the flag as a line with no trade yet, not a suspension', () => {
    const q = parseQuotes(edit(MOUTAI, UNTRADED, 'sz000001'), wanted(['sz000001', 'sz000001'])).get('sz000001')!
    expect(q).toMatchObject({ halted: false, traded: false, last: 11.15, volume: 0 })
  })

  it('leaves unknown codes and short records out of the map', () => {
    const text = [MOUTAI, 'v_pv_none_match="1";', 'v_sh510300="1~沪深300ETF~510300~3.900";'].join('\n')
    const m = parseQuotes(text, wanted(['sh600519', 'sh600519'], ['sh510300', 'sh510300'], ['sz000002', 'sz000002']))
    expect([...m.keys()]).toEqual(['sh600519'])
  })

  it('answers an empty map when every code is unknown', () => {
    expect(parseQuotes('v_pv_none_match="1";\n', wanted(['sh600519', 'sh600519'])).size).toBe(0)
  })

  it('rejects a whole answer when one record does not add up', () => {
    const bad = edit(MOUTAI, { 33: '1500.00', 34: '1525.00' })
    expect(kind(() => parseQuotes([SSE_INDEX, bad].join('\n'), wanted(['sh600519', 'sh600519'], ['sh000001', 'sh000001'])))).toBe('malformed')
  })

  it.each([
    ['a non-numeric price', edit(MOUTAI, { 3: 'abc' })],
    ['a bad timestamp', edit(MOUTAI, { 30: '2025-01-02' })],
    ['a negative volume', edit(MOUTAI, { 6: '-5' })],
  ])('rejects %s', (_, line) => {
    expect(kind(() => parseQuotes(line, wanted(['sh600519', 'sh600519'])))).toBe('malformed')
  })

  it('rejects garbage and a body cut mid-record', () => {
    expect(kind(() => parseQuotes('<html>502 Bad Gateway</html>', wanted(['sh600519', 'sh600519'])))).toBe('malformed')
    expect(kind(() => parseQuotes(MOUTAI.slice(0, 120), wanted(['sh600519', 'sh600519'])))).toBe('malformed')
  })

  it('calls an empty body empty', () => {
    expect(kind(() => parseQuotes(' \n', wanted(['sh600519', 'sh600519'])))).toBe('empty')
  })

  it('splits statements on newlines or none', () => {
    expect(statements('v_a="1";v_b="2";\nv_c="";')).toEqual([['a', '1'], ['b', '2'], ['c', '']])
  })
})

describe('tencent fetchQuotes', () => {
  it('requests GBK text from qt.gtimg.cn with no headers', async () => {
    const { ctx, calls } = fakeContext(() => ({ body: gbk([MOUTAI, TENCENT_HK, APPLE].join('\n')) }))
    const m = await fetchQuotes(['sh600519', 'hk00700', 'usAAPL', 'fuRB2501'].map(inst), ctx)
    expect(calls).toEqual([{ url: 'https://qt.gtimg.cn/q=sh600519,hk00700,usAAPL', headers: {} }])
    expect(m.get('sh600519')!.name).toBe('贵州茅台')
    expect(m.get('hk00700')!.name).toBe('腾讯控股')
    expect([...m.keys()].sort()).toEqual(['hk00700', 'sh600519', 'usAAPL'])
  })

  it(`batches ${QUOTE_BATCH} codes a request`, async () => {
    const codes = Array.from({ length: 61 }, (_, k) => `sh600${String(k).padStart(3, '0')}`)
    const { ctx, calls } = fakeContext(() => ({ body: 'v_pv_none_match="1";' }))
    await fetchQuotes(codes.map(inst), ctx)
    expect(calls.map((c) => c.url.split(',').length)).toEqual([60, 1])
  })

  it('refuses a request with nothing Tencent can quote, without fetching', async () => {
    const { ctx, calls } = fakeContext(() => ({ body: '' }))
    await expect(fetchQuotes([inst('pt0477')], ctx)).rejects.toMatchObject({ kind: 'unsupported' })
    expect(calls).toHaveLength(0)
  })

  it('surfaces an HTTP failure as http', async () => {
    const { ctx } = fakeContext(() => ({ status: 502, body: 'bad gateway' }))
    await expect(fetchQuotes([inst('sh600519')], ctx)).rejects.toMatchObject({ kind: 'http' })
  })
})
