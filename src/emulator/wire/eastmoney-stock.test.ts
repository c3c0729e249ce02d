import { describe, expect, it } from 'vitest'
import { limitPrices, market } from '../market'
import { handleEastmoney } from './eastmoney'

const SESSION = Date.parse('2026-11-20T10:30:00+08:00')
const BEFORE_OPEN = Date.parse('2026-11-20T09:00:00+08:00')

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

  it('prints "-" for a halted stock\'s prices and book, and data null for an unknown secid', async () => {
    const body = await get('0.000001', BEFORE_OPEN)
    expect(body.data).toMatchObject({ f43: '-', f46: '-', f47: '-', f19: '-', f20: '-', f39: '-' })
    expect(typeof body.data.f60).toBe('number')
    expect((await get('1.999999', SESSION)).data).toBeNull()
  })
})
