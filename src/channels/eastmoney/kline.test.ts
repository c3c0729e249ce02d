import { describe, expect, it } from 'vitest'
import { parseSymbol } from '../../domain/symbols'
import type { KlineRequest, NativePeriod } from '../types'
import { klineUrl, parseKline } from './kline'
import captured601872 from '../../../test/fixtures/push2/kline-sh601872-day-2024-12-31.json?raw'
import capturedNoData from '../../../test/fixtures/push2/kline-no-data.json?raw'
import captured8Columns from '../../../test/fixtures/push2/kline-sh000300-day-2026-09-30.json?raw'
import capturedEmptyRange from '../../../test/fixtures/push2/kline-sh000300-empty-range-2021-08-22-jsonp.json?raw'

const req = (code: string, period: NativePeriod = 'day', extra: Partial<KlineRequest> = {}): KlineRequest => ({
  instrument: parseSymbol(code),
  period,
  count: 100,
  ...extra,
})

// Hand-written in the shape of README "K-lines" / upstreams.md §2.1.
const body = (rows: string[], head = '"code":"600519","market":1,"name":"贵州茅台","decimal":2') =>
  `{"rc":0,"rt":17,"svr":181669733,"lt":1,"full":0,"dlmkts":"","data":{${head},"dktotal":${rows.length},"preKPrice":1508.5,"klines":${JSON.stringify(rows)}}}`

const D1 = '2025-01-02,1510.00,1520.00,1525.00,1505.20,21345,3243567890.00,1.31,0.76,11.50,0.17'
const D2 = '2025-01-03,1521.00,1498.80,1522.00,1495.00,25012,3758123456.00,1.78,-1.39,-21.20,0.20'

const expectKind = (kind: string, fn: () => unknown) => expect(fn).toThrow(expect.objectContaining({ kind, channel: 'eastmoney' }))

describe('klineUrl', () => {
  it('builds the README URL for day bars without bounds', () => {
    expect(klineUrl('1.600519', req('sh600519'))).toBe(
      'https://push2his.eastmoney.com/api/qt/stock/kline/get?secid=1.600519&klt=101&fqt=1&beg=0&end=20500101&lmt=100' +
        '&fields1=f1,f2,f3,f4,f5,f6&fields2=f51,f52,f53,f54,f55,f56,f57,f58,f59,f60,f61'
    )
  })

  it('turns start/end into YYYYMMDD bounds', () => {
    const url = klineUrl('0.000001', req('sz000001', 'day', { start: '2024-01-02', end: '2024-12-31', count: 250 }))
    expect(url).toContain('?secid=0.000001&klt=101&fqt=1&beg=20240102&end=20241231&lmt=250&')
  })

  it.each([
    ['day', 101, 1],
    ['week', 102, 1],
    ['month', 103, 1],
    ['season', 104, 1],
    ['year', 106, 1],
    ['m1', 1, 0],
    ['m5', 5, 0],
    ['m15', 15, 0],
    ['m30', 30, 0],
    ['m60', 60, 0],
  ] as const)('%s → klt=%i fqt=%i', (period, klt, fqt) => {
    expect(klineUrl('1.600519', req('sh600519', period))).toContain(`&klt=${klt}&fqt=${fqt}&`)
  })

  it('asks qfq for indexes, HK and US too', () => {
    expect(klineUrl('1.000001', req('sh000001'))).toContain('&fqt=1&')
    expect(klineUrl('116.00700', req('hk00700', 'week'))).toContain('secid=116.00700&klt=102&fqt=1&')
  })
})

// Real kline/get answers (test/fixtures/push2/SOURCE.md).
describe('parseKline on captured answers', () => {
  it('reads ten qfq day bars of 601872 with the eleven columns we ask for', () => {
    const bars = parseKline(captured601872, req('sh601872'))
    expect(bars).toHaveLength(10)
    expect(bars[0]).toEqual({ date: '2024-12-18', open: 6.11, close: 6.18, high: 6.28, low: 6.1, volume: 84_274_300, amount: 542_829_495, turnover: 1.03 })
    expect(bars[9]).toEqual({ date: '2024-12-31', open: 6.29, close: 6.18, high: 6.32, low: 6.17, volume: 48_379_400, amount: 313_479_921, turnover: 0.59 })
  })

  it('agrees with the columns we do not read: change and amplitude follow from the closes we keep', () => {
    const bars = parseKline(captured601872, req('sh601872'))
    const rows = (JSON.parse(captured601872).data.klines as string[]).map((r) => r.split(',').map(Number))
    for (let i = 1; i < bars.length; i++) {
      const pre = bars[i - 1].close
      const [, , , , , , , amplitude, changePct, change] = rows[i]
      expect(bars[i].close - pre).toBeCloseTo(change, 2)
      expect(((bars[i].close - pre) / pre) * 100).toBeCloseTo(changePct, 1)
      expect(((bars[i].high - bars[i].low) / pre) * 100).toBeCloseTo(amplitude, 1)
    }
  })

  it('calls the real "no such secid" answer (rc 100, data null) empty', () => {
    expectKind('empty', () => parseKline(capturedNoData, req('sh601872')))
  })

  it('calls the real "nothing in this range" answer (rc 0, klines [], JSONP, on a Sunday) empty', () => {
    expectKind('empty', () => parseKline(capturedEmptyRange, req('sh000300')))
    expect(() => parseKline(capturedEmptyRange, req('sh000300'))).toThrow(/in range/)
  })

  it('refuses rows of another fields2 (8 columns) rather than misreading them', () => {
    expectKind('malformed', () => parseKline(captured8Columns, req('sh000300')))
  })
})

describe('parseKline', () => {
  it('reads day bars oldest first, volume in shares', () => {
    expect(parseKline(body([D1, D2]), req('sh600519'))).toEqual([
      { date: '2025-01-02', open: 1510, close: 1520, high: 1525, low: 1505.2, volume: 2134500, amount: 3243567890, turnover: 0.17 },
      { date: '2025-01-03', open: 1521, close: 1498.8, high: 1522, low: 1495, volume: 2501200, amount: 3758123456, turnover: 0.2 },
    ])
  })

  it('keeps BJ in lots ×100 and HK and US volumes as shares', () => {
    expect(parseKline(body([D1]), req('bj830799'))[0].volume).toBe(2134500)
    expect(parseKline(body([D1]), req('hk00700'))[0].volume).toBe(21345)
    expect(parseKline(body([D1]), req('usAAPL'))[0].volume).toBe(21345)
  })

  it('gives an index "-" turnover as null', () => {
    const row = '2025-01-02,3347.94,3262.56,3351.73,3242.09,512345678,512345678901.00,3.27,-2.66,-89.20,-'
    expect(parseKline(body([row]), req('sh000001'))[0]).toMatchObject({ turnover: null, volume: 51234567800 })
  })

  it('reads minute bars dated YYYY-MM-DD HH:MM', () => {
    const rows = [
      '2025-01-02 14:55,1519.00,1520.50,1521.00,1518.80,312,47425600.00,0.14,0.10,1.50,0.00',
      '2025-01-02 15:00,1520.50,1520.00,1521.00,1519.50,405,61560000.00,0.10,-0.03,-0.50,0.00',
    ]
    const bars = parseKline(body(rows), req('sh600519', 'm5'))
    expect(bars.map((b) => b.date)).toEqual(['2025-01-02 14:55', '2025-01-02 15:00'])
    expect(bars[0].volume).toBe(31200)
  })

  it('keeps the most recent count bars if more come back', () => {
    expect(parseKline(body([D1, D2]), req('sh600519', 'day', { count: 1 })).map((b) => b.date)).toEqual(['2025-01-03'])
  })

  it('accepts a JSONP-wrapped body', () => {
    expect(parseKline(`jQuery1124_1({"rc":0,"data":{"klines":[${JSON.stringify(D1)}]}});`, req('sh600519'))).toHaveLength(1)
  })

  it.each([
    ['data:null with rc 100', '{"rc":100,"data":null}'],
    ['data:null with rc 0', '{"rc":0,"data":null}'],
    ['klines: []', body([])],
  ])('reports %s as empty', (_, text) => {
    expectKind('empty', () => parseKline(text, req('sh600519')))
  })

  // rc 102 is what the host says to a request it does not serve (an unknown klt, a market it has
  // no bars for, a refused caller: test/fixtures/push2/SOURCE.md); "no data" there would hide bars
  // that exist, so the call fails and the failover asks the next channel.
  it.each([
    ['rc 102, data null', '{"rc":102,"rt":1,"lt":1,"full":1,"data":null}'],
    ['rc 102 with data', `{"rc":102,"data":{"klines":[${JSON.stringify(D1)}]}}`],
    ['another nonzero rc', '{"rc":101,"data":null}'],
  ])('reports a refusal (%s) as a failure, not as empty', (_, text) => {
    expectKind('malformed', () => parseKline(text, req('sh600519')))
    expect(() => parseKline(text, req('sh600519'))).toThrow(/refused/)
  })

  it.each([
    ['a truncated row', [D1, '2025-01-03,-']],
    ['an extra column', [D1 + ',123']],
    ['high below low', ['2025-01-02,1510.00,1520.00,1500.00,1505.20,21345,3243567890.00,1.31,0.76,11.50,0.17']],
    ['close above high', ['2025-01-02,1510.00,1530.00,1525.00,1505.20,21345,3243567890.00,1.31,0.76,11.50,0.17']],
    ['dates out of order', [D2, D1]],
    ['a repeated date', [D1, D1]],
    ['a non-number price', [D1.replace('1510.00', 'abc')]],
    ['an empty price', [D1.replace('1510.00', '')]],
    ['a "-" volume', [D1.replace(',21345,', ',-,')]],
    ['a negative amount', [D1.replace('3243567890.00', '-1')]],
    ['a minute date on a day request', ['2025-01-02 15:00' + D1.slice(10)]],
    ['a bad date', ['20250102' + D1.slice(10)]],
    ['an impossible date', ['2025-02-30' + D1.slice(10)]],
  ])('refuses %s as malformed', (_, rows) => {
    expectKind('malformed', () => parseKline(body(rows), req('sh600519')))
  })

  it.each([
    ['a day date', D1],
    ['an impossible time', '2025-01-02 25:00' + D1.slice(10)],
  ])('refuses %s on a minute request as malformed', (_, row) => {
    expectKind('malformed', () => parseKline(body([row]), req('sh600519', 'm5')))
  })

  it.each([
    ['garbage text', '<html>502</html>'],
    ['an empty body', ''],
    ['truncated JSON', body([D1]).slice(0, 90)],
    ['no rc', '{"data":{"klines":[]}}'],
    ['no klines list', '{"rc":0,"data":{"code":"600519"}}'],
    ['klines of the wrong type', '{"rc":0,"data":{"klines":"2025-01-02"}}'],
    ['a row that is not a string', '{"rc":0,"data":{"klines":[[1,2,3]]}}'],
    ['data that is a string', '{"rc":0,"data":"x"}'],
  ])('refuses %s as malformed', (_, text) => {
    expectKind('malformed', () => parseKline(text, req('sh600519')))
  })
})
