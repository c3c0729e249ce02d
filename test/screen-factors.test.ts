import { env } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { PRESETS } from '../src/data/screen-presets'
import { market } from '../src/emulator/market'
import { epsTtm, financialReport } from '../src/emulator/market/fundamentals'
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
      // /v1/finance has no parent equity from Eastmoney (RPT_DMSK_FN_BALANCE has none): the screen's book value is the 业绩报表's BPS.
      expect(y25.EndDate).toBe('2025-12-31')
      expect(balance[0].parent_equity).toBeNull()
    }
  })

  it('has book value from the latest report\'s BPS: PB = close / BPS as /v1/snapshot\'s PB, ROETTM = TTM profit / (BPS × shares)', async () => {
    const { body } = await screen(`?expr=${q('intersect([PB > 0, BPS > 0, ROETTM > -1000])')}&orderby=TotalMV&limit=500`)
    expect(body.ok).toBe(true)
    expect(body.matched).toBeGreaterThan(250) // every stock with a report and a positive book
    for (const code of NAMED) {
      const row = body.structured.find((r: any) => r.code === code)
      expect(row, code).toBeDefined()
      const [close, bps, pb, roe] = ['ClosePrice', 'BPS', 'PB', 'ROETTM'].map((k) => Number(row[k]))
      // BPS: the latest report's (2026-09-30) parent equity per share, as the model and the quotes have it (shown to the fen).
      const inst = market.byCode(code)!
      const r = financialReport(market, inst, '2026-09-30', NOW)!
      const book = r.balance.parentEquity / inst.totalShares!
      expect(Math.abs(bps - book), code).toBeLessThanOrEqual(0.005)
      // PB (4 decimals) = close / BPS, and /v1/snapshot's PB (2 decimals) to its rounding.
      expect(Math.abs(pb - close / book), code).toBeLessThanOrEqual(0.00005 + 1e-9)
      const snap = (await getJson(`/v1/snapshot?code=${code}`)).body.data
      expect(Math.abs(pb - snap.pb), code).toBeLessThanOrEqual(0.0051)
      // ROETTM (%) = TTM profit / (BPS × shares) = EPS TTM / BPS × 100.
      expect(Math.abs(roe - (epsTtm(market, inst, DATE, NOW)! / book) * 100), code).toBeLessThanOrEqual(0.00005 + 1e-9)
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

  // Those that need book value (PB, BPS, ROETTM: LowPB, HighROE, Value, Quality) too.
  it.each(PRESETS.filter((p) => p.market === 'hs').map((p) => [p.name, p.expr]))('preset %s runs and returns rows (%s)', async (name) => {
    const { status, body } = await screen(`?preset=${name}`)
    expect(status).toBe(200)
    expect(body, JSON.stringify(body).slice(0, 300)).toMatchObject({ ok: true, preset: name })
    expect(body.returned).toBeGreaterThan(0)
  })
})
