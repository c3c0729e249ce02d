import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { marketKlineKey } from './keys'
import { hasMarketDay, joinRows, MARKET_KLINE_COLUMNS, marketRow, readMarketDay, rowBar, writeMarketDay } from './market-kline'

describe('market-kline blob', () => {
  it('renders a bar as 8 strings, prices with 2 decimals, unadjusted', () => {
    const r = marketRow('sh600519', { date: '2026-11-20', open: 1660.9, high: 1667.595, low: 1644.88, close: 1652.85, volume: 4497500, amount: 7438492544.071 })
    expect(Object.keys(r)).toEqual([...MARKET_KLINE_COLUMNS])
    expect(r).toEqual({ code: 'sh600519', time: '2026-11-20', open: '1660.90', high: '1667.60', low: '1644.88', close: '1652.85', volume: '4497500', amount: '7438492544.07' })
    expect(rowBar(r)).toEqual({ date: '2026-11-20', open: 1660.9, high: 1667.6, low: 1644.88, close: 1652.85, volume: 4497500, amount: 7438492544.07 })
  })

  it('is stored as the exact data array, sorted by code, with the row count in metadata', async () => {
    const b = { date: '2026-11-19', open: 10, high: 11, low: 9, close: 10.5, volume: 100, amount: 1050 }
    const bytes = await writeMarketDay(env.STORE, '2026-11-19', [marketRow('sz000002', b), marketRow('bj920001', b), marketRow('sh600000', b)])
    const obj = (await env.STORE.get(marketKlineKey('2026-11-19')))!
    expect(obj.customMetadata).toEqual({ rows: '3', date: '2026-11-19' })
    expect(obj.httpMetadata?.contentType).toBe('application/json; charset=utf-8')
    const text = await obj.text()
    expect(text.length).toBe(bytes)
    const rows = JSON.parse(text)
    expect(rows.map((r: { code: string }) => r.code)).toEqual(['bj920001', 'sh600000', 'sz000002'])
    expect(await readMarketDay(env.STORE, '2026-11-19')).toEqual(rows)
    expect(await hasMarketDay(env.STORE, '2026-11-19')).toBe(true)
    expect(await hasMarketDay(env.STORE, '2026-11-18')).toBe(false)
  })

  it('joins staged row texts into the same JSON', () => {
    const rows = [{ a: 1 }, { a: 2 }]
    expect(joinRows(rows.map((r) => JSON.stringify(r)))).toBe(JSON.stringify(rows))
    expect(joinRows([])).toBe('[]')
  })
})
