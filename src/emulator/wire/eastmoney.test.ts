import { describe, expect, it } from 'vitest'
import { isTradingDay } from '../../domain/trading-calendar'
import { qfqAsOf } from './bars'
import { eastmoneyEmpty, handleEastmoney } from './eastmoney'
import { fakeMarket } from './fake-market'
import { fixed } from './format'

// Thursday 2025-01-02 15:30 Beijing: the session has closed, today's bar is complete.
const NOW = Date.parse('2025-01-02T07:30:00Z')
const inst = (code: string) => fakeMarket.byCode(code)!

async function get(url: string, now = NOW): Promise<{ status: number; body: any }> {
  const u = new URL(url)
  const res = await handleEastmoney(u, new Request(u), fakeMarket, now)
  const text = await res.text()
  return { status: res.status, body: res.status === 200 ? JSON.parse(text) : text }
}

const QUOTE_URL = 'https://push2.eastmoney.com/api/qt/ulist.np/get?fltt=2&invt=2&fields=f2,f3,f4,f5,f6,f8,f12,f13,f14,f15,f16,f17,f18,f124,f297&secids='
const KLINE_URL = 'https://push2his.eastmoney.com/api/qt/stock/kline/get?fields1=f1,f2,f3,f4,f5,f6&fields2=f51,f52,f53,f54,f55,f56,f57,f58,f59,f60,f61'

describe('eastmoney ulist.np/get', () => {
  it('answers rows keyed by f12/f13 with exactly the requested fields', async () => {
    const { body } = await get(QUOTE_URL + '1.600519,0.000001')
    expect(body.rc).toBe(0)
    expect(body.data.total).toBe(2)
    const [row] = body.data.diff
    expect(Object.keys(row)).toEqual(['f2', 'f3', 'f4', 'f5', 'f6', 'f8', 'f12', 'f13', 'f14', 'f15', 'f16', 'f17', 'f18', 'f124', 'f297'])
    const bar = fakeMarket.live(inst('sh600519'), NOW).bar
    expect(row).toMatchObject({ f12: '600519', f13: 1, f14: '贵州茅台', f2: bar.close, f17: bar.open, f15: bar.high, f16: bar.low, f18: bar.preClose, f297: 20250102 })
    // f124 is the quote's Unix second: 15:00:00 Beijing.
    expect(row.f124).toBe(Date.parse('2025-01-02T07:00:00Z') / 1000)
  })

  it('prints volume in lots for A-shares, shares for HK/US, contracts for futures, 0 for forex', async () => {
    const { body } = await get(QUOTE_URL + '1.600519,116.00700,105.AAPL,113.rb2501,133.USDCNH')
    const rows = new Map(body.data.diff.map((r: any) => [`${r.f13}.${r.f12}`, r]))
    const vol = (code: string) => fakeMarket.live(inst(code), NOW).bar.volume
    expect((rows.get('1.600519') as any).f5).toBe(vol('sh600519') / 100)
    expect((rows.get('116.00700') as any).f5).toBe(vol('hk00700'))
    expect((rows.get('105.AAPL') as any).f5).toBe(vol('usAAPL'))
    expect((rows.get('113.rb2501') as any).f5).toBe(vol('fuRB2501'))
    expect((rows.get('133.USDCNH') as any).f5).toBe(0)
  })

  it('sends "-" turnover for indexes, sectors, futures and forex', async () => {
    const { body } = await get(QUOTE_URL + '1.000001,90.BK0477,113.rb2501,133.USDCNH,1.600519')
    const turnovers = body.data.diff.map((r: any) => r.f8)
    expect(turnovers.slice(0, 4)).toEqual(['-', '-', '-', '-'])
    expect(typeof turnovers[4]).toBe('number')
  })

  it('drops unknown secids and answers rc 102 with data:null when none is known, as the real host', async () => {
    const one = await get(QUOTE_URL + '1.999999,1.600519,1.600519')
    expect(one.body.data.total).toBe(1)
    const none = await get(QUOTE_URL + '1.999999')
    expect(none.body).toMatchObject({ rc: 102, data: null })
  })

  it('matches secids case-insensitively but echoes the exchange spelling', async () => {
    const { body } = await get(QUOTE_URL + '113.RB2501')
    expect(body.data.diff[0].f12).toBe('rb2501')
  })

  it('sends "-" for today\'s prices of a suspended stock, with the last close in f18', async () => {
    const { body } = await get(QUOTE_URL + '0.000002')
    const row = body.data.diff[0]
    for (const f of ['f2', 'f3', 'f4', 'f5', 'f6', 'f15', 'f16', 'f17']) expect(row[f]).toBe('-')
    expect(row.f18).toBe(fakeMarket.live(inst('sz000002'), NOW).bar.close)
  })

  it('sends the last session\'s final line before the open, with that session\'s date and previous close', async () => {
    const preOpen = Date.parse('2025-01-03T00:30:00Z')
    const { body } = await get(QUOTE_URL + '1.600519', preOpen)
    const last = fakeMarket.dailyBars(inst('sh600519'), '2025-01-02', '2025-01-02', NOW)[0]
    expect(body.data.diff[0]).toMatchObject({ f2: last.close, f17: last.open, f18: last.preClose, f297: 20250102 })
  })

  it('scales prices and percentages to integers without fltt=2', async () => {
    const { body } = await get('https://push2.eastmoney.com/api/qt/ulist.np/get?fields=f2,f3,f1&secids=1.510300')
    const bar = fakeMarket.live(inst('sh510300'), NOW).bar
    expect(body.data.diff[0].f1).toBe(3)
    expect(body.data.diff[0].f2).toBe(Math.round(bar.close * 1000))
    expect(Number.isInteger(body.data.diff[0].f3)).toBe(true)
  })

  it('answers on numbered mirrors and push2delay too', async () => {
    for (const host of ['82.push2.eastmoney.com', 'push2delay.eastmoney.com']) {
      const { body } = await get(QUOTE_URL.replace('push2.eastmoney.com', host) + '1.600519')
      expect(body.data.total).toBe(1)
    }
  })
})

describe('eastmoney kline/get', () => {
  const k = (q: string, now = NOW) => get(`${KLINE_URL}&${q}`, now)

  it('answers the header and 11-column rows with fixed decimals, oldest first', async () => {
    const { body } = await k('secid=1.600519&klt=101&fqt=1&beg=0&end=20500101&lmt=5')
    const d = body.data
    expect(Object.keys(d)).toEqual(['code', 'market', 'name', 'decimal', 'dktotal', 'preKPrice', 'klines'])
    expect(d).toMatchObject({ code: '600519', market: 1, name: '贵州茅台', decimal: 2 })
    expect(d.klines).toHaveLength(5)
    const cols = d.klines.map((r: string) => r.split(','))
    expect(cols.every((c: string[]) => c.length === 11)).toBe(true)
    expect(cols[4][0]).toBe('2025-01-02')
    expect(cols.map((c: string[]) => c[0])).toEqual([...cols.map((c: string[]) => c[0])].sort())
    for (const c of cols) {
      for (const i of [1, 2, 3, 4, 9]) expect(c[i]).toMatch(/^-?\d+\.\d{2}$/)
      expect(c[5]).toMatch(/^\d+$/)
      expect(c[6]).toMatch(/^\d+\.\d{2}$/)
    }
    const raw = fakeMarket.dailyBars(inst('sh600519'), '2025-01-02', '2025-01-02', NOW)[0]
    const f = qfqAsOf(fakeMarket, inst('sh600519'), '2025-01-02', NOW)
    expect(cols[4][2]).toBe(fixed(raw.close * f, 2))
    expect(Number(cols[4][5])).toBe(raw.volume / 100)
    // dktotal counts the bars the emulator computed for the answer (a window, not the whole history).
    expect(d.dktotal).toBeGreaterThanOrEqual(d.klines.length)
  })

  it('computes amplitude, change % and change against the previous bar close', async () => {
    const { body } = await k('secid=1.600519&klt=101&fqt=1&beg=0&end=20500101&lmt=3')
    const rows = body.data.klines.map((r: string) => r.split(',').map((x, i) => (i ? Number(x) : x)))
    for (let i = 1; i < rows.length; i++) {
      const base = rows[i - 1][2]
      const [, , close, high, low] = rows[i]
      expect(rows[i][7]).toBeCloseTo(((high - low) / base) * 100, 2)
      expect(rows[i][8]).toBeCloseTo(((close - base) / base) * 100, 2)
      expect(rows[i][9]).toBeCloseTo(close - base, 2)
    }
    expect(body.data.preKPrice).toBeGreaterThan(0)
  })

  it('takes the most recent lmt bars with date <= end, and >= beg', async () => {
    const a = await k('secid=1.600519&klt=101&fqt=1&beg=0&end=20241231&lmt=3')
    expect(a.body.data.klines.map((r: string) => r.slice(0, 10))).toEqual(['2024-12-27', '2024-12-30', '2024-12-31'])
    const b = await k('secid=1.600519&klt=101&fqt=1&beg=20241230&end=20500101&lmt=100')
    expect(b.body.data.klines.map((r: string) => r.slice(0, 10))).toEqual(['2024-12-30', '2024-12-31', '2025-01-02'])
    const c = await k('secid=1.600519&klt=101&fqt=1&beg=20300101&end=20500101&lmt=100')
    expect(c.body.data.klines).toEqual([])
  })

  it('applies fqt 0/1/2 with the model factors, rounded to the decimals', async () => {
    const date = '2024-06-18' // the day before the first ex-date
    const q = (fqt: number) => k(`secid=1.600519&klt=101&fqt=${fqt}&beg=20240618&end=20240618`)
    const raw = fakeMarket.dailyBars(inst('sh600519'), date, date, NOW)[0]
    const [none, qfq, hfq] = await Promise.all([q(0), q(1), q(2)])
    const close = (r: any) => r.body.data.klines[0].split(',')[2]
    expect(close(none)).toBe(fixed(raw.close, 2))
    expect(close(qfq)).toBe(fixed(raw.close * qfqAsOf(fakeMarket, inst('sh600519'), date, NOW), 2))
    expect(close(hfq)).toBe(fixed(raw.close * fakeMarket.hfqFactor(inst('sh600519'), date), 2))
    expect(close(qfq)).not.toBe(close(none))
    // The 2025-06-26 dividend is after the clock: not known yet, so only the 2024 factor applies.
    expect(close(qfq)).toBe(fixed(raw.close * 0.98, 2))
  })

  it('aggregates weeks Monday to Sunday, dated by their last trading day', async () => {
    const { body } = await k('secid=1.600519&klt=102&fqt=1&beg=20241201&end=20500101')
    const dates = body.data.klines.map((r: string) => r.slice(0, 10))
    // 2024-12-31 (Tue) closes the week before New Year's Day; 2025-01-02 (Thu) is this week so far.
    expect(dates.slice(-3)).toEqual(['2024-12-20', '2024-12-27', '2025-01-02'])
    const days = fakeMarket.dailyBars(inst('sh600519'), '2024-12-30', '2025-01-02', NOW)
    const last = body.data.klines.at(-1).split(',')
    const f = (d: string) => qfqAsOf(fakeMarket, inst('sh600519'), d, NOW)
    expect(last[1]).toBe(fixed(days[0].open * f(days[0].date), 2))
    expect(last[2]).toBe(fixed(days.at(-1)!.close * f(days.at(-1)!.date), 2))
    expect(Number(last[5])).toBe(days.reduce((s, b) => s + b.volume, 0) / 100)
    for (const d of dates) expect(isTradingDay(d)).toBe(true)
  })

  it('aggregates months, quarters and years', async () => {
    const month = await k('secid=1.600519&klt=103&fqt=1&beg=20240101&end=20500101')
    expect(month.body.data.klines.map((r: string) => r.slice(0, 10)).slice(0, 3)).toEqual(['2024-01-31', '2024-02-29', '2024-03-29'])
    const quarter = await k('secid=1.600519&klt=104&fqt=1&beg=20240101&end=20500101')
    expect(quarter.body.data.klines.map((r: string) => r.slice(0, 10))).toEqual(['2024-03-29', '2024-06-28', '2024-09-30', '2024-12-31', '2025-01-02'])
    const year = await k('secid=1.600519&klt=106&fqt=1&beg=0&end=20500101')
    expect(year.body.data.klines.map((r: string) => r.slice(0, 10))).toEqual(['2023-12-29', '2024-12-31', '2025-01-02'])
  })

  it('answers minute bars dated by their end time', async () => {
    const { body } = await k('secid=1.600519&klt=5&fqt=0&beg=20250102&end=20250102&lmt=100')
    const dates = body.data.klines.map((r: string) => r.split(',')[0])
    expect(dates).toHaveLength(48)
    expect(dates[0]).toBe('2025-01-02 09:35')
    expect(dates.at(-1)).toBe('2025-01-02 15:00')
  })

  it('honours fields2, columns in ascending id order', async () => {
    const { body } = await get('https://push2his.eastmoney.com/api/qt/stock/kline/get?secid=1.600519&klt=101&fqt=1&end=20500101&lmt=1&fields1=f1,f4&fields2=f56,f51,f53')
    expect(Object.keys(body.data)).toEqual(['code', 'decimal', 'klines'])
    const [date, close, volume] = body.data.klines[0].split(',')
    expect(date).toBe('2025-01-02')
    expect(close).toMatch(/^\d+\.\d{2}$/)
    expect(volume).toMatch(/^\d+$/)
  })

  it('prints "-" turnover for indexes and the ETF with 3 decimals', async () => {
    const idx = await k('secid=1.000001&klt=101&fqt=1&lmt=1&end=20500101')
    expect(idx.body.data.klines[0].split(',')[10]).toBe('-')
    const etf = await k('secid=1.510300&klt=101&fqt=1&lmt=1&end=20500101')
    expect(etf.body.data.decimal).toBe(3)
    expect(etf.body.data.klines[0].split(',')[2]).toMatch(/^\d+\.\d{3}$/)
  })

  it('answers rc 100 with data null for an unknown secid', async () => {
    const { body } = await k('secid=1.999999&klt=101&fqt=1&lmt=10')
    expect(body).toMatchObject({ rc: 100, data: null })
  })

  it('keeps history off push2 and 404s unknown paths', async () => {
    const onPush2 = await get(`${KLINE_URL.replace('push2his', 'push2')}&secid=1.600519&klt=101`)
    expect(onPush2.body.data).toBeNull()
    const mirror = await get(`${KLINE_URL.replace('push2his', '63.push2his')}&secid=1.600519&klt=101&lmt=1`)
    expect(mirror.body.data.klines).toHaveLength(1)
    expect((await get('https://push2.eastmoney.com/api/qt/nothing/get')).status).toBe(404)
    // clist/get lives on push2, the datacenter on its own host.
    expect((await get('https://push2his.eastmoney.com/api/qt/clist/get')).status).toBe(404)
    expect((await get('https://push2.eastmoney.com/api/data/v1/get?reportName=RPT_SHAREBONUS_DET')).status).toBe(404)
  })

  it('has an empty form per endpoint', async () => {
    const q = eastmoneyEmpty(new URL(QUOTE_URL + '1.600519'), fakeMarket)!
    expect(await q.json()).toMatchObject({ rc: 0, data: null })
    const kl = eastmoneyEmpty(new URL(`${KLINE_URL}&secid=1.600519&klt=101`), fakeMarket)!
    expect(await kl.json()).toMatchObject({ rc: 0, data: { code: '600519', klines: [] } })
    expect(await eastmoneyEmpty(new URL('https://push2.eastmoney.com/api/qt/clist/get?fs=m:1+t:2'), fakeMarket)!.json()).toMatchObject({ rc: 0, data: null })
    expect(await eastmoneyEmpty(new URL('https://datacenter-web.eastmoney.com/api/data/v1/get?reportName=RPT_SHAREBONUS_DET'), fakeMarket)!.json()).toMatchObject({ code: 9201, result: null })
  })
})
