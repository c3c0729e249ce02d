import { env } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { PRESETS } from '../src/data/screen-presets'
import { market } from '../src/emulator/market'
import { buildHistory } from '../src/jobs/build-history'
import { collectRows, stagedDayRows, writeDayTables } from '../src/jobs/day-tables'
import { marketSource } from '../src/jobs/testing'
import { profilesOf } from '../src/store/meta'
import { deletePrefix } from '../src/store/r2-json'
import { getJson, makeKey, resetWorld } from './helpers'

// One day's tables built the way the after-close job builds them (histories → point-in-time rows →
// technicals and factor tables, fundamentals from the statements), over 300 stocks of the
// emulator's market; then read through /v1/screen and compared with the other endpoints' views.
const DATE = '2026-11-20'
const AFTER_CLOSE = '2026-11-20T16:00:00+08:00'
const NOW = Date.parse(AFTER_CLOSE)
const NAMED = ['sh600519', 'sz000001', 'sz300750', 'sh688981', 'sh600036', 'sh601398', 'sh601318', 'sz000858']
const stocks = market.instruments().filter((i) => i.kind === 'stock')
const CODES = [...new Set([...NAMED, ...stocks.filter((_, i) => i % Math.floor(stocks.length / 292) === 0).map((i) => i.code)])].slice(0, 300)

let key = ''
const screen = (qs: string) => getJson('/v1/screen' + qs, { headers: { authorization: `Bearer ${key}` } })
const q = encodeURIComponent

beforeAll(async () => {
  await resetWorld(AFTER_CLOSE)
  key = await makeKey('unlimited') // many calls in a row: the tiers' limits are tested elsewhere
  await deletePrefix(env.STORE, 'factors/')
  await deletePrefix(env.STORE, 'meta/factors-')
  const source = marketSource(market, CODES, () => NOW)
  const rows = new Map<string, Array<string | number | null>>()
  for (const code of CODES) {
    const h = await buildHistory(source, code, DATE)
    if (h) collectRows(stagedDayRows(h, DATE, DATE).map((l) => l.slice(l.indexOf('\t') + 1)), rows)
  }
  const list = await source.snapshot()
  const names = Object.fromEntries(list.map((r) => [r.code, market.byCode(r.code)!.name]))
  await writeDayTables(env.STORE, DATE, rows.values(), names, NOW, { source, profiles: profilesOf(list) })
}, 120_000)

/** The screen row of `code` among every stock with a positive PE. */
async function rowOf(code: string) {
  const { body } = await screen(`?expr=${q('intersect([PE_TTM > 0, PE_LYR > 0])')}&orderby=TotalMV&limit=500`)
  expect(body.ok).toBe(true)
  return body.structured.find((r: any) => r.code === code)
}

describe('/v1/screen over the day\'s built tables', () => {
  it('has 300 stocks dated the day', async () => {
    const { body } = await screen(`?expr=${q('ClosePrice > 0')}&limit=1`)
    expect(body).toMatchObject({ ok: true, date: DATE, matched: 300 })
  })

  it('PE_TTM and PE_LYR equal /v1/snapshot\'s, and ClosePrice the day\'s close, to the rounding both state', async () => {
    for (const code of NAMED) {
      const snap = (await getJson(`/v1/snapshot?code=${code}`)).body
      expect(snap.ok, code).toBe(true)
      const s = snap.data
      const row = await rowOf(code)
      expect(row, code).toBeDefined()
      expect(Number(row.ClosePrice), code).toBe(s.last)
      // The day's bar on /v1/kline (forward-adjusted, which on the latest day is the price that traded).
      const bar = (await getJson(`/v1/kline?code=${code}&start=${DATE}&end=${DATE}`)).body.data[0]
      expect(Number(row.ClosePrice), code).toBe(Number(bar.last))
      // Snapshot prints 2 decimals, the screen 4: they agree to half a cent of the coarser.
      expect(Math.abs(Number(row.PE_TTM) - s.pe_ttm), code).toBeLessThanOrEqual(0.0051)
      expect(Math.abs(Number(row.PE_LYR) - s.pe_static), code).toBeLessThanOrEqual(0.0051)
    }
  })

  it('growth and margins agree with the statements /v1/finance serves (latest report 2026-09-30)', async () => {
    const expr = 'intersect([RevenueYoY > -1000, NetProfitYoY > -1000, GrossMargin > -1000, DebtRatio > 0])'
    const { body } = await screen(`?expr=${q(expr)}&orderby=TotalMV&limit=500`)
    for (const code of ['sh600519', 'sz000001', 'sz300750']) {
      const row = body.structured.find((r: any) => r.code === code)
      const [income, balance] = (await getJson(`/v1/finance?code=${code}&num=5`)).body.data
      const [q3, , , y25, q3prev] = income
      expect(q3.EndDate).toBe('2026-09-30')
      const close = (x: number, want: number) => Math.abs(x - want) <= 0.00006
      expect(close(Number(row.RevenueYoY), ((q3.revenue - q3prev.revenue) / Math.abs(q3prev.revenue)) * 100), code).toBe(true)
      expect(close(Number(row.NetProfitYoY), ((q3.parent_net_profit - q3prev.parent_net_profit) / Math.abs(q3prev.parent_net_profit)) * 100), code).toBe(true)
      expect(close(Number(row.GrossMargin), ((q3.revenue - q3.operating_cost) / q3.revenue) * 100), code).toBe(true)
      expect(close(Number(row.DebtRatio), (balance[0].total_liabilities / balance[0].total_assets) * 100), code).toBe(true)
      // /v1/finance has no parent equity from Eastmoney either (RPT_DMSK_FN_BALANCE has none).
      expect(y25.EndDate).toBe('2025-12-31')
      expect(balance[0].parent_equity).toBeNull()
    }
  })

  it('has no book value: PB, BPS and ROETTM are null for every stock (the statements carry no parent equity)', async () => {
    for (const expr of ['PB > -1000000', 'BPS > -1000000', 'ROETTM > -1000000']) {
      const { body } = await screen(`?expr=${q(expr)}&limit=1`)
      expect(body, expr).toMatchObject({ ok: false, code: 'NO_MATCH', matched: 0 })
    }
  })

  it('size factors agree with /v1/snapshot\'s share counts and market caps', async () => {
    const { body } = await screen(`?expr=${q('intersect([TotalMV > 0, FloatMV > 0, TotalShares > 0, FloatShares > 0])')}&orderby=TotalMV&limit=500`)
    for (const code of NAMED) {
      const s = (await getJson(`/v1/snapshot?code=${code}`)).body.data
      const row = body.structured.find((r: any) => r.code === code)
      expect(Number(row.TotalShares), code).toBe(s.total_shares)
      expect(Number(row.FloatShares), code).toBe(s.float_shares)
      // Both in 100 million CNY; snapshot to 2 decimals, the screen to 4.
      expect(Math.abs(Number(row.TotalMV) - s.total_market_cap), code).toBeLessThanOrEqual(0.0051)
      expect(Math.abs(Number(row.FloatMV) - s.float_market_cap), code).toBeLessThanOrEqual(0.0051)
    }
  })

  // Presets that need book value (PB, ROETTM) select nothing on hs: the statements carry no parent equity.
  const needsBook = (expr: string) => /\b(PB|BPS|ROETTM)\b/.test(expr)
  it.each(PRESETS.filter((p) => p.market === 'hs').map((p) => [p.name, p.expr]))('preset %s runs and returns rows unless it needs book value (%s)', async (name, expr) => {
    const { status, body } = await screen(`?preset=${name}`)
    expect(status).toBe(200)
    if (needsBook(expr)) {
      expect(body, JSON.stringify(body).slice(0, 300)).toMatchObject({ ok: false, code: 'NO_MATCH', preset: name, matched: 0 })
      return
    }
    expect(body, JSON.stringify(body).slice(0, 300)).toMatchObject({ ok: true, preset: name })
    expect(body.returned).toBeGreaterThan(0)
  })
})
