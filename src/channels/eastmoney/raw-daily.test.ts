import { describe, expect, it } from 'vitest'
import { parseSymbol } from '../../domain/symbols'
import { fakeContext } from '../testkit'
import { fetchRawDaily, rawDailyUrl } from './raw-daily'

const sh = parseSymbol('sh600519')
const body = (rows: string[]) => JSON.stringify({ rc: 0, data: { code: '600519', market: 1, name: '贵州茅台', decimal: 2, dktotal: rows.length, preKPrice: 1508.5, klines: rows } })
const D1 = '2025-01-02,1510.00,1520.00,1525.00,1505.20,21345,3243567890.00,1.31,0.76,11.50,0.17'
const D2 = '2025-01-03,1521.00,1498.80,1522.00,1495.00,25012,3758123456.00,1.78,-1.39,-21.20,0.20'

describe('rawDailyUrl', () => {
  it('is the K-line URL with fqt=0, the range and a large lmt', () => {
    expect(rawDailyUrl('1.600519', sh, '2016-08-08', '2026-11-20')).toBe(
      'https://push2his.eastmoney.com/api/qt/stock/kline/get?secid=1.600519&klt=101&fqt=0&beg=20160808&end=20261120&lmt=10000' +
        '&fields1=f1,f2,f3,f4,f5,f6&fields2=f51,f52,f53,f54,f55,f56,f57,f58,f59,f60,f61'
    )
  })
})

describe('fetchRawDaily', () => {
  it('returns raw bars oldest first, volume in shares', async () => {
    const fake = fakeContext(() => ({ body: body([D1, D2]) }))
    const bars = await fetchRawDaily(fake.ctx, sh, '2025-01-01', '2025-01-03')
    expect(bars).toEqual([
      { date: '2025-01-02', open: 1510, close: 1520, high: 1525, low: 1505.2, volume: 2134500, amount: 3243567890, turnover: 0.17 },
      { date: '2025-01-03', open: 1521, close: 1498.8, high: 1522, low: 1495, volume: 2501200, amount: 3758123456, turnover: 0.2 },
    ])
    expect(fake.calls.map((c) => c.url)).toEqual([rawDailyUrl('1.600519', sh, '2025-01-01', '2025-01-03')])
  })

  it('reports no bars as empty', async () => {
    await expect(fetchRawDaily(fakeContext(() => ({ body: body([]) })).ctx, sh, '2025-01-04', '2025-01-05')).rejects.toMatchObject({ kind: 'empty', channel: 'eastmoney' })
    await expect(fetchRawDaily(fakeContext(() => ({ body: '{"rc":100,"data":null}' })).ctx, sh, '2025-01-04', '2025-01-05')).rejects.toMatchObject({ kind: 'empty' })
  })

  it('refuses bars outside the range asked for', async () => {
    await expect(fetchRawDaily(fakeContext(() => ({ body: body([D1, D2]) })).ctx, sh, '2025-01-03', '2025-01-03')).rejects.toMatchObject({ kind: 'malformed' })
  })

  it('throws RangeError for a range that is not one, without calling out', async () => {
    const fake = fakeContext(() => ({ body: body([D1]) }))
    await expect(fetchRawDaily(fake.ctx, sh, '2025-01-03', '2025-01-02')).rejects.toBeInstanceOf(RangeError)
    await expect(fetchRawDaily(fake.ctx, sh, '20250101', '2025-01-02')).rejects.toBeInstanceOf(RangeError)
    expect(fake.calls).toHaveLength(0)
  })
})
