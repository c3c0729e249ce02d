import { beforeEach, describe, expect, it } from 'vitest'
import { BALANCE_LINES, CASHFLOW_LINES, INCOME_LINES } from '../src/domain/finance'
import { market } from '../src/emulator/market'
import { financialReports } from '../src/emulator/market/fundamentals'
import { ANONYMOUS, fault, getJson, makeKey, resetWorld, SESSION_CLOCK } from './helpers'

const NOW = Date.parse(SESSION_CLOCK)
const near = (a: number, b: number, tol = 0.02) => Math.abs(a - b) <= tol
/** Balance lines RPT_DMSK_FN_BALANCE has no column for (src/channels/eastmoney/finance.ts). */
const EASTMONEY_NULL_BALANCE = ['current_assets', 'current_liabilities', 'parent_equity', 'minority_equity'] as const

/** A well-formed SH main-board code the emulator does not list. */
function unlistedCode(): string {
  for (let n = 600000; n < 604000; n++) if (!market.byCode(`sh${n}`)) return `sh${n}`
  throw new Error('every code is listed')
}

describe('GET /v1/finance', () => {
  beforeEach(() => resetWorld())

  it('returns [income, balance, cashflow], latest period first, agreeing with the published statements', async () => {
    for (const code of ['sh600519', 'sz000001', 'sz300750']) {
      const { status, body } = await getJson(`/v1/finance?code=${code}`)
      expect(status).toBe(200)
      expect(body).toMatchObject({ ok: true, endpoint: 'finance', source: 'emulator:eastmoney', as_of: '2026-09-30' })
      const [income, balance, cashflow] = body.data
      for (const [rows, lines] of [[income, INCOME_LINES], [balance, BALANCE_LINES], [cashflow, CASHFLOW_LINES]] as const) {
        expect(rows.map((r: any) => r.EndDate)).toEqual(['2026-09-30', '2026-06-30', '2026-03-31', '2025-12-31'])
        for (const r of rows) expect(Object.keys(r).sort()).toEqual(['EndDate', ...lines.map((l) => l.name)].sort())
      }
      const model = financialReports(market, market.byCode(code)!, NOW, 4)
      model.forEach((m, k) => {
        expect(income[k].parent_net_profit).toBe(m.income.parentNetProfit)
        // Eastmoney's summary has no net-profit column: total profit − tax, which is the model's net profit to the fen.
        expect(income[k].net_profit).toBe(m.income.netProfit)
        expect(balance[k].total_assets).toBe(m.balance.totalAssets)
        expect(balance[k].total_equity).toBe(m.balance.totalEquity)
        // Lines the real report has no column for.
        expect(income[k].basic_eps).toBeNull()
        for (const line of EASTMONEY_NULL_BALANCE) expect(balance[k][line], line).toBeNull()
        expect(cashflow[k].end_cash).toBe(m.cashflow.endCash)
      })
      for (const b of balance) expect(near(b.total_assets, b.total_liabilities + b.total_equity)).toBe(true)
      // The cash-flow statement ends on the balance sheet's cash.
      cashflow.forEach((c: any, k: number) => expect(c.end_cash).toBe(balance[k].cash))
      // Cumulative income: Q3 covers more than H1.
      expect(income[0].revenue).toBeGreaterThan(income[1].revenue)
    }
  })

  it('honours num up to 40 periods', async () => {
    const { body } = await getJson('/v1/finance?code=sh600519&num=9')
    for (const rows of body.data) expect(rows).toHaveLength(9)
    expect(body.data[0][8].EndDate).toBe('2024-09-30')
    const { body: forty } = await getJson('/v1/finance?code=sh600519&num=40')
    expect(forty.data[0]).toHaveLength(40)
  })

  it.each([
    ['num=0', 'num'],
    ['num=41', 'num'],
    ['num=2.5', 'num'],
    ['num=abc', 'num'],
  ])('422 for %s', async (q, field) => {
    const { status, body } = await getJson(`/v1/finance?code=sh600519&${q}`)
    expect(status).toBe(422)
    expect(body.detail[0].loc).toEqual(['query', field])
  })

  it.each(['sh600519,sz000001', 'xx123', 'sh999999', ''])('422 naming code for %j', async (code) => {
    const { status, body } = await getJson(`/v1/finance?code=${code}`)
    expect(status).toBe(422)
    expect(body.detail[0].loc).toEqual(['query', 'code'])
  })

  it('422 without code', async () => {
    const { status, body } = await getJson('/v1/finance')
    expect(status).toBe(422)
    expect(body.detail[0].loc).toEqual(['query', 'code'])
  })

  it.each(['hk00700', 'usAAPL', 'sh000001', 'sh510300'])('answers %s (not an A-share stock) with empty data and a notice', async (code) => {
    const { status, body } = await getJson(`/v1/finance?code=${code}`)
    expect(status).toBe(200)
    expect(body).toMatchObject({ ok: true, data: [] })
    expect(body.notice).toMatch(/A-share stocks/)
  })

  it('is NO_DATA for a well-formed code nobody lists', async () => {
    const { body } = await getJson(`/v1/finance?code=${unlistedCode()}`)
    expect(body).toMatchObject({ ok: false, code: 'NO_DATA', data: [] })
  })

  it('fails over to Sina with the same statements, which also fill the lines Eastmoney has no column for (Sina has no deducted profit)', async () => {
    const em = (await getJson('/v1/finance?code=sz000001&num=6')).body
    await fault('eastmoney', 'http')
    const { body } = await getJson('/v1/finance?code=sz000001&num=6')
    expect(body).toMatchObject({ ok: true, source: 'emulator:sina', as_of: em.as_of })
    const [income, balance, cashflow] = body.data
    const model = financialReports(market, market.byCode('sz000001')!, NOW, 6)
    model.forEach((m, k) => {
      expect(income[k].basic_eps).toBe(m.income.basicEps)
      expect(balance[k]).toMatchObject({ current_assets: m.balance.currentAssets, current_liabilities: m.balance.currentLiabilities, parent_equity: m.balance.parentEquity, minority_equity: m.balance.minorityEquity })
    })
    // Every other line as Eastmoney served it.
    const without = (rows: any[], lines: readonly string[]) => rows.map((r) => Object.fromEntries(Object.entries(r).filter(([l]) => !lines.includes(l))))
    // Sina's income statement has no line excluding non-recurring items (test/fixtures/sina/SOURCE.md).
    expect(income.every((r: any) => r.deducted_parent_net_profit === null)).toBe(true)
    expect(without(income, ['basic_eps', 'deducted_parent_net_profit'])).toEqual(without(em.data[0], ['basic_eps', 'deducted_parent_net_profit']))
    expect(without(balance, EASTMONEY_NULL_BALANCE)).toEqual(without(em.data[1], EASTMONEY_NULL_BALANCE))
    expect(cashflow).toEqual(em.data[2])
  })

  it('is ok:false UPSTREAM_UNAVAILABLE when both channels fail, NO_DATA when both have nothing', async () => {
    await fault('eastmoney', 'http')
    await fault('sina', 'garbage')
    const { body } = await getJson('/v1/finance?code=sh600519')
    expect(body).toMatchObject({ ok: false, code: 'UPSTREAM_UNAVAILABLE', data: [] })
    expect(body.error).toMatch(/eastmoney.*sina/)
    await resetWorld()
    await fault('eastmoney', 'empty')
    await fault('sina', 'empty')
    expect((await getJson('/v1/finance?code=sh600519')).body).toMatchObject({ ok: false, code: 'NO_DATA' })
  })

  it('needs a key; trial is enough', async () => {
    const anon = await getJson('/v1/finance?code=sh600519', ANONYMOUS)
    expect(anon.status).toBe(401)
    const trial = await makeKey('trial')
    const { status, body } = await getJson('/v1/finance?code=sh600519', { headers: { authorization: `Bearer ${trial}` } })
    expect(status).toBe(200)
    expect(body.ok).toBe(true)
  })
})
