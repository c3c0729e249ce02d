/**
 * The wire layer over the emulator's real market (src/emulator/market): every instrument has
 * unambiguous upstream identifiers, every kind answers in its layout, and the three upstreams
 * tell the same story about the same bars.
 */
import { hasTraded } from '../market/quote'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEmulatorFetch, resetEmulator, setClock } from '../control'
import { market, type EmuInstrument } from '../market'
import { sinaCode, tencentKlineCodes, tencentQuoteCode } from './codes'
import { fixed } from './format'

// Monday 2025-06-30 15:30 Beijing: A-shares have closed for the day.
const NOW = Date.parse('2025-06-30T07:30:00Z')
const SINA = { headers: { Referer: 'https://finance.sina.com.cn/' } }
const emu = createEmulatorFetch(market)
const gbkText = async (url: string, init?: RequestInit) => new TextDecoder('gbk').decode(await (await emu(url, init)).arrayBuffer())
const json = async (url: string) => (await (await emu(url)).json()) as any

beforeAll(() => {
  resetEmulator()
  setClock(NOW)
})
afterAll(() => resetEmulator())

/** The first instrument of each kind. */
function sample(): Map<string, EmuInstrument> {
  const seen = new Map<string, EmuInstrument>()
  for (const i of market.instruments()) if (!seen.has(i.kind)) seen.set(i.kind, i)
  return seen
}

describe('identifiers over the real universe', () => {
  it('gives every instrument distinct secid, Tencent and Sina codes', () => {
    const all = market.instruments()
    for (const [name, id] of [
      ['secid', (i: EmuInstrument) => [i.secid.toLowerCase()]],
      ['tencent quote', (i: EmuInstrument) => [tencentQuoteCode(i)]],
      ['tencent kline', tencentKlineCodes],
      ['sina', (i: EmuInstrument) => [sinaCode(i)]],
    ] as const) {
      const ids = all.flatMap((i) => id(i)).filter((x): x is string => x !== undefined)
      expect(new Set(ids).size, name).toBe(ids.length)
    }
  })
})

describe('quotes over the real market', () => {
  it('answers every kind on Eastmoney with the live bar', async () => {
    const kinds = sample()
    const secids = [...kinds.values()].map((i) => i.secid).join(',')
    const body = await json(`https://push2.eastmoney.com/api/qt/ulist.np/get?fltt=2&invt=2&fields=f2,f3,f4,f5,f6,f8,f12,f13,f14,f15,f16,f17,f18,f124,f297&secids=${secids}`)
    expect(body.data.total).toBe(kinds.size)
    for (const row of body.data.diff) {
      const inst = [...kinds.values()].find((i) => i.secid === `${row.f13}.${row.f12}`)!
      const q = market.live(inst, NOW)
      if (!hasTraded(q)) expect(row.f2, inst.code).toBe('-')
      else expect(row.f2, inst.code).toBe(q.bar.close)
      expect(row.f297, inst.code).toBe(Number(q.date.replaceAll('-', '')))
    }
  })

  it('answers Tencent and Sina layouts with the same last price as Eastmoney', async () => {
    const stock = market.byCode('sh600519')!
    const q = market.live(stock, NOW)
    expect(hasTraded(q)).toBe(true)
    const tx = /v_sh600519="([^"]*)"/.exec(await gbkText('https://qt.gtimg.cn/q=sh600519'))![1].split('~')
    expect(tx).toHaveLength(88)
    expect(tx[3]).toBe(fixed(q.bar.close, 2))
    expect(tx[6]).toBe(String(Math.round(q.bar.volume / 100)))
    const sn = /hq_str_sh600519="([^"]*)"/.exec(await gbkText('https://hq.sinajs.cn/list=sh600519', SINA))![1].split(',')
    // A Shanghai line carries a 34th, empty field, as real ones do (test/fixtures/sina/SOURCE.md).
    expect(sn).toHaveLength(34)
    expect(sn[3]).toBe(fixed(q.bar.close, 3))
    expect(sn[8]).toBe(String(q.bar.volume))
  })

  it('answers Friday\'s final lines on a Sunday, on every host', async () => {
    setClock(Date.parse('2025-06-29T04:00:00Z'))
    try {
      const body = await json('https://push2.eastmoney.com/api/qt/ulist.np/get?fltt=2&fields=f2,f18,f297&secids=1.600519')
      const friday = market.dailyBars(market.byCode('sh600519')!, '2025-06-27', '2025-06-27', NOW)[0]
      expect(body.data.diff[0]).toEqual({ f2: friday.close, f18: friday.preClose, f297: 20250627 })
      const sn = /hq_str_sh600519="([^"]*)"/.exec(await gbkText('https://hq.sinajs.cn/list=sh600519', SINA))![1].split(',')
      expect([sn[3], sn[8], sn[30], sn[31], sn[32]]).toEqual([fixed(friday.close, 3), String(friday.volume), '2025-06-27', '15:34:59', '00'])
      const tx = /v_sh600519="([^"]*)"/.exec(await gbkText('https://qt.gtimg.cn/q=sh600519'))![1].split('~')
      expect([tx[3], tx[5], tx[6], tx[30]]).toEqual([fixed(friday.close, 2), fixed(friday.open, 2), String(Math.round(friday.volume / 100)), '20250627161458'])
      expect(Number(tx[9])).toBeGreaterThan(0)
    } finally {
      setClock(NOW)
    }
  })
})

describe('K-lines over the real market', () => {
  it('agrees across Eastmoney qfq, Tencent qfq and Sina raw ÷ qfq.js factors', async () => {
    const em = await json('https://push2his.eastmoney.com/api/qt/stock/kline/get?secid=1.600519&klt=101&fqt=1&beg=0&end=20500101&lmt=400&fields1=f1,f2,f3,f4,f5,f6&fields2=f51,f52,f53,f54,f55,f56,f57,f58,f59,f60,f61')
    const emClose = new Map<string, string>(em.data.klines.map((r: string) => [r.slice(0, 10), r.split(',')[2]]))
    expect(emClose.size).toBe(400)

    const tx = await json('https://proxy.finance.qq.com/ifzqgtimg/appstock/app/newfqkline/get?param=sh600519,day,,,400,qfq')
    const rows: unknown[][] = tx.data.sh600519.qfqday
    expect(rows).toHaveLength(400)
    for (const r of rows) expect(Number(r[2]).toFixed(2), String(r[0])).toBe(emClose.get(String(r[0])))
    // Ex-dates inside the window (and not after the clock) carry the dividend object on their row.
    const inWindow = market.actions(market.byCode('sh600519')!).filter((a) => a.exDate >= String(rows[0][0]) && a.exDate <= '2025-06-30')
    expect(inWindow.length).toBeGreaterThan(0)
    expect(rows.filter((r) => Object.keys(r[6] as object).length > 0).map((r) => r[0])).toEqual(inWindow.map((a) => a.exDate))
    for (const a of inWindow) {
      expect(rows.find((r) => r[0] === a.exDate)![6]).toMatchObject({ cqr: a.exDate, FHcontent: `10派${fixed(a.cash * 10, 2)}元` })
    }

    const sinaText = await (await emu('https://quotes.sina.cn/cn/api/jsonp_v2.php/=/CN_MarketDataService.getKLineData?symbol=sh600519&scale=240&ma=no&datalen=400', SINA)).text()
    const raw: Array<{ day: string; close: string }> = JSON.parse(sinaText.slice(2, -2))
    const qfqText = await (await emu('https://finance.sina.com.cn/realstock/company/sh600519/qfq.js', SINA)).text()
    // `var sh600519qfq={…};` and a trailing comment.
    const factors: Array<{ d: string; f: string }> = JSON.parse(qfqText.slice('var sh600519qfq='.length, qfqText.indexOf('};') + 1)).data
    // Newest first, f = 1 for the newest; dividends after the clock are not listed; the 1900-01-01 sentinel last.
    expect(factors[0]).toEqual({ d: inWindow.at(-1)!.exDate, f: fixed(1, 16) })
    expect(factors.at(-1)!.d).toBe('1900-01-01')
    for (const b of raw) {
      const f = Number(factors.find((x) => x.d <= b.day)!.f)
      expect((Math.round((Number(b.close) / f) * 100) / 100).toFixed(2), b.day).toBe(emClose.get(b.day))
    }
  })

  it('answers week, month, quarter and year bars dated by trading days', async () => {
    for (const klt of [102, 103, 104, 106]) {
      const body = await json(`https://push2his.eastmoney.com/api/qt/stock/kline/get?secid=0.000001&klt=${klt}&fqt=1&beg=0&end=20500101&lmt=5&fields2=f51,f53`)
      const dates: string[] = body.data.klines.map((r: string) => r.split(',')[0])
      expect(dates, String(klt)).toHaveLength(5)
      expect(dates.at(-1)).toBe('2025-06-30')
      for (const d of dates) expect(market.dailyBars(market.byCode('sz000001')!, d, d, NOW)).toHaveLength(1)
    }
  })

  it('answers minute bars from every upstream for an A-share', async () => {
    const em = await json('https://push2his.eastmoney.com/api/qt/stock/kline/get?secid=1.600519&klt=5&fqt=0&beg=0&end=20500101&lmt=48&fields2=f51,f53')
    expect(em.data.klines).toHaveLength(48)
    expect(em.data.klines.at(-1)).toMatch(/^2025-06-30 15:00,/)
    const tx = await json('https://web.ifzq.gtimg.cn/appstock/app/kline/mkline?param=sh600519,m5,,48')
    expect(tx.data.sh600519.m5.at(-1)[0]).toBe('202506301500')
    const sina = await (await emu('https://quotes.sina.cn/cn/api/jsonp_v2.php/=/CN_MarketDataService.getKLineData?symbol=sh600519&scale=5&ma=no&datalen=48', SINA)).text()
    expect(JSON.parse(sina.slice(2, -2)).at(-1).day).toBe('2025-06-30 15:00:00')
    const close = (s: string) => s.split(',')[1]
    expect(Number(tx.data.sh600519.m5.at(-1)[2])).toBe(Number(close(em.data.klines.at(-1))))
  })

  it('serves a year of day bars for many stocks quickly', async () => {
    const stocks = market.instruments().filter((i) => i.kind === 'stock').slice(0, 40)
    const started = Date.now()
    for (const s of stocks) {
      const body = await json(`https://push2his.eastmoney.com/api/qt/stock/kline/get?secid=${s.secid}&klt=101&fqt=1&beg=0&end=20500101&lmt=250`)
      expect(body.rc).toBe(0)
    }
    // Generous: the point is that a request does not compute a decade of history.
    expect(Date.now() - started).toBeLessThan(10_000)
  })
})
