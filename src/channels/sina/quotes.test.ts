import { describe, expect, it } from 'vitest'
import { parseSymbol } from '../../domain/symbols'
import { fakeContext, gbk, failureKind } from '../testkit'
import { fetchQuotes, parseQuotes, statements } from './quotes'
import { QUOTE_BATCH } from './hq-feed'

// Wire samples in the shapes of upstreams.md §1.2 (invented values).
const PINGAN =
  'var hq_str_sz000001="平安银行,11.20,11.15,11.32,11.40,11.10,11.31,11.32,85643210,965432100.500,21300,11.31,45200,11.30,12000,11.29,8800,11.28,30100,11.27,9900,11.32,15600,11.33,22000,11.34,5400,11.35,61000,11.36,2025-01-02,15:00:03,00";'
const SSE_INDEX =
  'var hq_str_sh000001="上证指数,3245.000,3240.500,3260.120,3270.000,3238.100,0,0,31234567800,412345670000,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,2025-01-02,15:30:39,00,";'
const HK =
  'var hq_str_rt_hk00700="TENCENT,腾讯控股,379.000,378.000,383.000,376.400,380.200,2.200,0.582,380.000,380.200,5789123456.000,15234500,22.310,0.890,417.800,260.200,2025/01/02,16:08:09";'
const APPLE =
  'var hq_str_gb_aapl="苹果,243.8500,0.74,2025-01-03 05:00:00,1.7900,242.9000,245.1200,241.3300,260.1000,164.0800,40234567,45123456,3686543210000,6.08,40.11,0.00,1.24,1.00,0.41,15115823000,61.00,244.1000,0.10,0.2500,Jan 02 07:59PM EST,Jan 02 04:00PM EST,242.0600,1234567";'
const DOW =
  'var hq_str_gb_$dji="道琼斯,42732.1300,0.44,2025-01-03 06:30:00,188.0000,42600.0000,42800.0000,42400.0000,45073.6300,37611.5600,412345678,0,0,0,0,0,0,0,0,0,0,0,0,0,Jan 02 05:30PM EST,Jan 02 05:30PM EST,42544.2200,0";'
const REBAR =
  'var hq_str_nf_RB2501="螺纹钢2501,145959,3560.000,3588.000,3552.000,3561.000,3575.000,3576.000,3575.000,3570.000,3561.000,120,85,1523456.000,987654,沪,螺纹钢,2025-01-02,1,,,,,,,,,3570.112,0.000,0,0.000,0,0.000,0,0.000,0,0.000,0,0.000,0,0.000,0,0.000,0";'
const SUGAR =
  'var hq_str_nf_SR501="白糖2501,150000,5900.000,5950.000,5880.000,5910.000,5920.000,5921.000,5920.000,5915.000,5905.000,10,20,412345.000,234567,郑,白糖,2025-01-02,1,,,,,,,,,5915.500,0.000,0,0.000,0,0.000,0,0.000,0,0.000,0,0.000,0,0.000,0,0.000,0";'
const IF =
  'var hq_str_nf_IF2501="3800.000,3830.000,3790.000,3820.400,48813,224594285.400,140177.000,3820.400,0.000,4180.800,3420.800,0.000,0.000,3805.200,3800.800,142880.000,3820.000,1,0.000,0,0.000,0,0.000,0,0.000,0,3820.600,1,0.000,0,0.000,0,0.000,0,0.000,0,2025-01-02,15:00:00,300,1,,,,,,,,,3811.116,沪深300指数期货2501";'
// Verbatim hq.sinajs.cn captures of main continuous contracts, kept in public projects' tests:
// nf_RB0 and nf_IF0 at the 2026-09-01 close (a futures board's test suite), nf_RB0 in the night
// session of 2026-08-28 (a quote-collector's recorded payload; field 5 is 0.000 there).
const RB0_CLOSE =
  'var hq_str_nf_RB0="螺纹钢连续,150000,3197.000,3200.000,3158.000,3174.000,3174.000,3175.000,3174.000,3175.000,3186.000,24,129,1290303.000,710896,沪,螺纹钢,2026-09-01,1,,,,,,,,,3175.669,0.000,0,0.000,0,0.000,0,0.000,0,0.000,0,0.000,0,0.000,0";'
const RB0_NIGHT =
  'var hq_str_nf_RB0="螺纹钢连续,230000,3160.000,3180.000,3159.000,0.000,3177.000,3178.000,3178.000,0.000,3151.000,6,8,1152964.000,221502,沪,螺纹钢,2026-08-28,1,,,,,,,,,3172.461,0.000,0,0.000,0,0.000,0,0.000,0,0.000,0,0.000,0,0.000,0,0.000,0";'
const IF0_CLOSE =
  'var hq_str_nf_IF0="4602.000,4617.800,4576.000,4597.200,59140,271657781.600,137290.000,4597.200,0.000,5059.600,4140.000,0.000,0.000,4601.600,4599.800,145044.000,4597.000,3,0.000,0,0.000,0,0.000,0,0.000,0,4597.800,1,0.000,0,0.000,0,0.000,0,0.000,0,2026-09-01,15:00:00,200,1,,,,,,,,,4593.469,沪深300指数期货连续";'

/** Replaces comma fields of a line: the samples above stay the single source of each layout. */
function edit(line: string, changes: Record<number, string>): string {
  const m = /^var hq_str_([^=]+)="(.*)";$/.exec(line)!
  const f = m[2].split(',')
  for (const [i, v] of Object.entries(changes)) f[+i] = v
  return `var hq_str_${m[1]}="${f.join(',')}";`
}

const wanted = (...pairs: Array<[string, string]>) => new Map(pairs.map(([sc, c]) => [sc.toLowerCase(), parseSymbol(c)]))
const decode = (s: string) => new TextDecoder('gbk').decode(gbk(s))
const kind = failureKind

// A real hq.sinajs.cn answer for sh600519 and sz000858 at the close of 2026-05-13
// (test/fixtures/sina/SOURCE.md): the sh line ends in `00,` (34 fields), the sz line in `00` (33).
const CAPTURED = Object.values(import.meta.glob('/test/fixtures/sina/hq-sh600519-sz000858-2026-05-13.txt', { query: '?raw', import: 'default', eager: true }))[0]

describe('sina parseQuotes', () => {
  it('reads a captured two-line answer: shares and CNY, either line ending', () => {
    const m = parseQuotes(decode(CAPTURED), wanted(['sh600519', 'sh600519'], ['sz000858', 'sz000858']))
    expect(m.get('sh600519')).toEqual({
      code: 'sh600519', name: '贵州茅台', date: '2026-05-13', time: '15:00:03', last: 1344.09, open: 1354.5, high: 1358.6, low: 1338,
      preClose: 1354.55, volume: 5_696_787, amount: 7_653_257_144, turnover: null, halted: false, traded: true,
    })
    // Sina pads three-character names to four columns; the padding is dropped (src/channels/names.ts).
    expect(m.get('sz000858')).toMatchObject({ name: '五粮液', time: '15:00:00', last: 89.15, preClose: 90.56, volume: 46_720_129, amount: 4_173_652_012.86 })
    // Amount over volume is the day's average price, inside the day's range: volume is in shares.
    for (const q of m.values()) {
      expect(q.amount! / q.volume).toBeGreaterThan(q.low)
      expect(q.amount! / q.volume).toBeLessThan(q.high)
    }
  })

  it('reads the 33-field A-share line: shares and CNY already, no turnover', () => {
    expect(parseQuotes(decode(PINGAN), wanted(['sz000001', 'sz000001'])).get('sz000001')).toEqual({
      code: 'sz000001',
      name: '平安银行',
      date: '2025-01-02',
      time: '15:00:03',
      last: 11.32,
      open: 11.2,
      high: 11.4,
      low: 11.1,
      preClose: 11.15,
      volume: 85_643_210,
      amount: 965_432_100.5,
      turnover: null,
      halted: false,
      traded: true,
    })
  })

  it('reads an index line', () => {
    expect(parseQuotes(decode(SSE_INDEX), wanted(['sh000001', 'sh000001'])).get('sh000001')).toMatchObject({ name: '上证指数', last: 3260.12, volume: 31_234_567_800 })
  })

  it('reads rt_hk: Chinese name, HKD amount, slashed date', () => {
    expect(parseQuotes(decode(HK), wanted(['rt_hk00700', 'hk00700'])).get('hk00700')).toMatchObject({
      name: '腾讯控股', date: '2025-01-02', time: '16:08:09', open: 379, preClose: 378, high: 383, low: 376.4, last: 380.2, amount: 5_789_123_456, volume: 15_234_500, turnover: null,
    })
  })

  it('reads gb_: US session date from Beijing time, no amount, no time', () => {
    expect(parseQuotes(decode(APPLE), wanted(['gb_aapl', 'usAAPL'])).get('usAAPL')).toMatchObject({
      name: '苹果', date: '2025-01-02', time: null, last: 243.85, open: 242.9, high: 245.12, low: 241.33, volume: 40_234_567, preClose: 242.06, amount: null,
    })
  })

  it('accepts $ in a var name (gb_$dji)', () => {
    expect(parseQuotes(decode(DOW), wanted(['gb_$dji', 'us.DJI'])).get('us.DJI')).toMatchObject({ name: '道琼斯', last: 42732.13, date: '2025-01-02' })
  })

  it('dates a Beijing morning stamp to the previous US session, an evening one to the same day', () => {
    const evening = edit(APPLE, { 3: '2025-01-02 22:31:00' })
    expect(parseQuotes(evening, wanted(['gb_aapl', 'usAAPL'])).get('usAAPL')!.date).toBe('2025-01-02')
  })

  it('reads commodity futures (SHFE, CZCE) and the CFFEX layout', () => {
    const m = parseQuotes(decode([REBAR, SUGAR, IF].join('\n')), wanted(['nf_RB2501', 'fuRB2501'], ['nf_SR501', 'fuSR2501'], ['nf_IF2501', 'fuIF2501']))
    expect(m.get('fuRB2501')).toMatchObject({ name: '螺纹钢2501', time: '14:59:59', open: 3560, high: 3588, low: 3552, preClose: 3561, last: 3575, volume: 987_654, date: '2025-01-02', amount: null })
    expect(m.get('fuSR2501')).toMatchObject({ name: '白糖2501', last: 5920 })
    expect(m.get('fuIF2501')).toMatchObject({ name: '沪深300指数期货2501', open: 3800, high: 3830, low: 3790, last: 3820.4, volume: 48_813, amount: 224_594_285.4, preClose: 3805.2, date: '2025-01-02', time: '15:00:00' })
  })

  it('reads real main continuous contract lines (nf_RB0, nf_IF0), day and night session', () => {
    const m = parseQuotes(decode([RB0_CLOSE, IF0_CLOSE].join('\n')), wanted(['nf_RB0', 'fuRB0'], ['nf_IF0', 'fuIF0']))
    // Commodity futures change against the previous settlement (field 10).
    expect(m.get('fuRB0')).toEqual({
      code: 'fuRB0', name: '螺纹钢连续', date: '2026-09-01', time: '15:00:00', last: 3174, open: 3197, high: 3200, low: 3158,
      preClose: 3186, volume: 710_896, amount: null, turnover: null, halted: false, traded: true,
    })
    expect(m.get('fuIF0')).toMatchObject({ name: '沪深300指数期货连续', last: 4597.2, preClose: 4601.6, volume: 59_140, amount: 271_657_781.6, time: '15:00:00' })
    // In the night session field 5 is 0.000; the line still parses, against the settlement.
    expect(parseQuotes(decode(RB0_NIGHT), wanted(['nf_RB0', 'fuRB0'])).get('fuRB0')).toMatchObject({ date: '2026-08-28', time: '23:00:00', last: 3178, preClose: 3151 })
  })

  it('leaves =""-lines (unknown or halted) and short lines out', () => {
    const text = [PINGAN, 'var hq_str_sh600000="";', 'var hq_str_sh600519="贵州茅台,1510.00,1508.50";'].join('\n')
    const m = parseQuotes(text, wanted(['sz000001', 'sz000001'], ['sh600000', 'sh600000'], ['sh600519', 'sh600519']))
    expect([...m.keys()]).toEqual(['sz000001'])
  })

  it('marks a line with status 03 as halted, last = prev close; the same zeros with status 00 as not traded yet', () => {
    const zeros = { 1: '0.00', 3: '0.00', 4: '0.00', 5: '0.00', 8: '0', 9: '0.000' }
    const q = parseQuotes(edit(PINGAN, { ...zeros, 32: '03' }), wanted(['sz000001', 'sz000001'])).get('sz000001')!
    expect(q).toMatchObject({ halted: true, traded: false, last: 11.15, volume: 0 })
    const untraded = parseQuotes(edit(PINGAN, { ...zeros, 32: '00' }), wanted(['sz000001', 'sz000001'])).get('sz000001')!
    expect(untraded).toMatchObject({ halted: false, traded: false, last: 11.15, volume: 0 })
  })

  it.each([
    ['high < low', edit(PINGAN, { 4: '11.00' })],
    ['a non-numeric price', edit(PINGAN, { 3: 'x' })],
    ['a bad date', edit(PINGAN, { 30: '20250102' })],
    ['a bad time', edit(PINGAN, { 31: '15:00' })],
    ['garbage', '<html>403 Forbidden</html>'],
    ['a body cut mid-line', PINGAN.slice(0, 80)],
  ])('rejects %s as malformed', (_, text) => {
    expect(kind(() => parseQuotes(text, wanted(['sz000001', 'sz000001'])))).toBe('malformed')
  })

  it('calls an empty body empty', () => {
    expect(kind(() => parseQuotes('', wanted(['sz000001', 'sz000001'])))).toBe('empty')
  })

  it('splits statements', () => {
    expect(statements('var hq_str_a="1";var hq_str_gb_$b="";\n')).toEqual([['a', '1'], ['gb_$b', '']])
  })
})

describe('sina fetchQuotes', () => {
  it('requests GBK from hq.sinajs.cn with the Referer', async () => {
    const { ctx, calls } = fakeContext(() => ({ body: gbk([PINGAN, HK, APPLE, DOW, SUGAR].join('\n')) }))
    const m = await fetchQuotes(['sz000001', 'hk00700', 'usAAPL', 'us.DJI', 'fuSR2501', 'fxUSDCNH'].map(parseSymbol), ctx)
    expect(calls).toEqual([
      { url: 'https://hq.sinajs.cn/list=sz000001,rt_hk00700,gb_aapl,gb_$dji,nf_SR501', headers: { referer: 'https://finance.sina.com.cn/' } },
    ])
    expect([...m.keys()].sort()).toEqual(['fuSR2501', 'hk00700', 'sz000001', 'us.DJI', 'usAAPL'])
    expect(m.get('sz000001')!.name).toBe('平安银行')
  })

  it('passes a Sina that 403s without a Referer, and surfaces a 403 as a ban', async () => {
    const strict = fakeContext((_, headers) => (headers.referer === 'https://finance.sina.com.cn/' ? { body: gbk(PINGAN) } : { status: 403, body: 'Forbidden' }))
    expect((await fetchQuotes([parseSymbol('sz000001')], strict.ctx)).size).toBe(1)
    const refusing = fakeContext(() => ({ status: 403, body: 'Forbidden' }))
    await expect(fetchQuotes([parseSymbol('sz000001')], refusing.ctx)).rejects.toMatchObject({ kind: 'banned', message: 'sina: banned: HTTP 403', status: 403 })
  })

  it(`batches ${QUOTE_BATCH} codes a request`, async () => {
    const codes = Array.from({ length: 801 }, (_, k) => `sh60${String(k).padStart(4, '0')}`).filter((c) => /^sh60[0135]/.test(c))
    const { ctx, calls } = fakeContext(() => ({ body: 'var hq_str_sh600000="";' }))
    await fetchQuotes(codes.map(parseSymbol), ctx)
    expect(calls.map((c) => c.url.split(',').length)).toEqual([800, codes.length - 800])
  })

  it('refuses a request with nothing Sina can quote', async () => {
    const { ctx, calls } = fakeContext(() => ({ body: '' }))
    await expect(fetchQuotes([parseSymbol('pt0477')], ctx)).rejects.toMatchObject({ kind: 'unsupported' })
    expect(calls).toHaveLength(0)
  })
})
