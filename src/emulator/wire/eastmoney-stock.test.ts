import { describe, expect, it } from 'vitest'
import { limitPrices, market } from '../market'
import { handleEastmoney } from './eastmoney'

const SESSION = Date.parse('2026-11-20T10:30:00+08:00')
const BEFORE_OPEN = Date.parse('2026-11-20T09:05:00+08:00')
const NIGHT = Date.parse('2026-11-20T02:00:00+08:00')
const AUCTION = Date.parse('2026-11-20T09:20:00+08:00')

async function get(secid: string, now: number, fields = ''): Promise<any> {
  const u = new URL(`https://push2.eastmoney.com/api/qt/stock/get?secid=${secid}&fltt=2&invt=2${fields ? `&fields=${fields}` : ''}`)
  return (await handleEastmoney(u, new Request(u), market, now)).json()
}

describe('push2 stock/get', () => {
  it('answers with exactly the requested ids, the book in lots and the model\'s quote', async () => {
    const body = await get('1.600519', SESSION, 'f43,f19,f20,f39,f40,f57,f51,f52,f999')
    expect(Object.keys(body.data)).toEqual(['f43', 'f19', 'f20', 'f39', 'f40', 'f57', 'f51', 'f52', 'f999'])
    const q = market.live(market.byCode('sh600519')!, SESSION)
    const [down, up] = limitPrices(q.bar.preClose, 0.1, 2)
    expect(body.data).toMatchObject({ f43: q.bar.close, f19: q.book.bids[0][0], f20: q.book.bids[0][1] / 100, f39: q.book.asks[0][0], f57: '600519', f51: up, f52: down, f999: '-' })
  })

  it('prints "-" for a suspended stock\'s prices and book, and data null for an unknown secid', async () => {
    // Suspensions fall on Tuesdays to Thursdays: 2026-11-18 is a Wednesday.
    const wednesday = Date.parse('2026-11-18T10:30:00+08:00')
    const suspended = market.instruments().find((i) => i.kind === 'stock' && i.prefix !== 'bj' && market.live(i, wednesday, 'eastmoney').state === 'suspended')!
    const body = await get(suspended.secid, wednesday)
    expect(body.data).toMatchObject({ f43: '-', f46: '-', f47: '-', f19: '-', f20: '-', f39: '-' })
    expect(body.data.f60).toBe(market.live(suspended, wednesday).bar.preClose)
    expect((await get('1.999999', SESSION)).data).toBeNull()
  })

  it('keeps the last session with its closing book until the auction, f292 5 (after the close) as captured', async () => {
    for (const at of [NIGHT, BEFORE_OPEN]) {
      const body = await get('1.600519', at, 'f43,f46,f47,f19,f39,f86,f292')
      const friday = market.dailyBars(market.byCode('sh600519')!, '2026-11-19', '2026-11-19', SESSION)[0]
      expect(body.data).toMatchObject({ f43: friday.close, f46: friday.open, f47: Math.round(friday.volume / 100), f292: 5 })
      expect(body.data.f19).toBeGreaterThan(0)
      expect(body.data.f39).toBeGreaterThan(body.data.f19)
      // 2026-11-19 15:34:03 Beijing.
      expect(body.data.f86).toBe(Date.parse('2026-11-19T15:34:03+08:00') / 1000)
    }
    expect((await get('1.600519', SESSION, 'f292')).data.f292).toBe(2)
  })

  it('shows the opening auction: the indicative price, no trade, bid1 = ask1 with the matched volume (an assumption: as Tencent)', async () => {
    const body = await get('1.600519', AUCTION, 'f43,f46,f47,f19,f20,f39,f40,f60')
    const q = market.live(market.byCode('sh600519')!, AUCTION, 'eastmoney')
    expect(body.data).toMatchObject({ f43: q.auction!.price, f46: '-', f47: 0, f19: q.auction!.price, f39: q.auction!.price, f20: q.auction!.matched / 100, f40: q.auction!.matched / 100, f60: q.bar.preClose })
  })
})
