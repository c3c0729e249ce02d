import { beforeEach, describe, expect, it } from 'vitest'
import { market } from '../src/emulator/market'
import { rightsIssueOf } from '../src/emulator/market/rights-issues'
import { ANONYMOUS, fault, getJson, resetWorld } from './helpers'

const CLOCK = '2026-10-22T10:30:00+08:00'
const NOW = Date.parse(CLOCK)

beforeEach(() => resetWorld(CLOCK))

const SLUGS = ['financial_report', 'dividend', 'ipo', 'meeting', 'lockup_release', 'rights_issue']

describe('GET /v1/calendar', () => {
  it('is sectioned: tables in the documented order and the same rows by slug', async () => {
    const { status, body } = await getJson('/v1/calendar')
    expect(status).toBe(200)
    expect(body).toMatchObject({ ok: true, endpoint: 'calendar', source: 'emulator:eastmoney', window: { start: '2026-10-22', end: '2026-11-21' } })
    expect(body.data.tables.map((t: { slug: string }) => t.slug)).toEqual(SLUGS)
    for (const t of body.data.tables) expect(body.data.data[t.slug]).toEqual(t.rows)
    expect(body.notice ?? '').not.toMatch(/not served/)
  })

  it('dividend rows are the corporate actions the price adjustment uses', async () => {
    const { body } = await getJson('/v1/calendar?date=2026-06-01&limit=500')
    const rows = body.data.data.dividend
    const expected = market
      .instruments()
      .filter((i) => i.kind === 'stock')
      .flatMap((i) => market.actions(i, NOW).filter((a) => a.exDate >= '2026-06-01' && a.exDate <= '2026-07-01').map((a) => ({ code: i.code, ...a })))
    expect(rows.length).toBe(Math.min(500, expected.length))
    if (expected.length > 500) expect(body.notice).toMatch(/\bdividend\b.*: more rows exist in the window than limit=500/)
    const byKey = new Map(expected.map((a) => [`${a.code} ${a.exDate}`, a]))
    for (const r of rows) {
      const a = byKey.get(`${r.code} ${r.date}`)
      expect(a, `${r.code} ${r.date}`).toBeDefined()
      expect(r.cash_per_share).toBeCloseTo(a!.cash, 8)
      expect(r.bonus_per_share).toBeCloseTo(a!.bonus, 8)
      expect(r.name).toBe(market.byCode(r.code)!.name)
    }
    // The earliest ex-dates come first: nothing left out is earlier than what was kept.
    const kept = new Set(rows.map((r: { code: string; date: string }) => `${r.code} ${r.date}`))
    const lastKept = rows.at(-1).date
    for (const a of expected) if (a.exDate < lastKept) expect(kept.has(`${a.code} ${a.exDate}`)).toBe(true)
  })

  it('financial_report rows are the disclosure schedule: published up to today, booked after', async () => {
    const { body } = await getJson('/v1/calendar?date=2026-10-08&limit=300')
    const rows = body.data.data.financial_report
    expect(rows.length).toBeGreaterThan(0)
    for (const r of rows) {
      expect(r.report_period).toBe('2026-09-30')
      expect(r.report).toBe('2026年三季报')
      expect(r.date >= '2026-10-08' && r.date <= '2026-11-07').toBe(true)
      if (r.date <= '2026-10-22') expect(r.published_date).toBe(r.date)
      else expect(r.published_date).toBeNull()
      expect(market.byCode(r.code)!.kind).toBe('stock')
    }
    const dates = rows.map((r: { date: string }) => r.date)
    expect(dates).toEqual([...dates].sort())
  })

  it('ipo rows are the /v1/ipo rows with an event in the window', async () => {
    const cal = (await getJson('/v1/calendar?date=2026-10-08')).body.data.data.ipo
    const ipo = (await getJson('/v1/ipo?days=90')).body.data
    expect(cal.length).toBeGreaterThan(0)
    for (const r of cal) {
      const same = ipo.find((i: { code: string }) => i.code === r.code)
      expect(same, r.code).toBeDefined()
      expect(r.listing_date).toBe(same.listing_date)
      expect(r.subscription_date).toBe(same.subscription_date)
      expect(r.date).toBe(r.events[0].date)
    }
  })

  it('lockup_release rows follow the listing day and are valued at the close before the release', async () => {
    const got = (await getJson('/v1/calendar?date=2026-10-08&limit=200')).body
    expect(got.errors).toBeUndefined()
    const rows = got.data.data.lockup_release
    expect(rows.length).toBeGreaterThan(0)
    for (const r of rows.slice(0, 10)) {
      expect(r.date >= '2026-10-08' && r.date <= '2026-11-07').toBe(true)
      const inst = market.byCode(r.code)!
      const months = [6, 12, 36].map((m) => {
        const d = new Date(inst.listDate + 'T00:00:00Z')
        d.setUTCMonth(d.getUTCMonth() + m)
        return d.toISOString().slice(0, 10)
      })
      // The free date is the first trading day on or after 6, 12 or 36 months from listing.
      expect(months.some((m) => m <= r.date && Date.parse(r.date) - Date.parse(m) < 10 * 86_400_000), `${r.code} ${inst.listDate} ${r.date}`).toBe(true)
      expect(r.shares).toBeGreaterThan(0)
      expect(r.float_ratio_pct).toBeCloseTo((r.shares / inst.floatShares!) * 100, 2)
      if (r.market_value !== null) {
        const day = r.date < '2026-10-22' ? r.date : '2026-10-22'
        const bars = market.dailyBars(inst, '2026-09-01', day, NOW).filter((b) => b.date < day)
        expect(r.market_value).toBeCloseTo(r.shares * bars.at(-1)!.close, 0)
      }
    }
  })

  it('meeting rows are the meetings that approve the dividend plans: held ones are resolved and their plans approved', async () => {
    const { body } = await getJson('/v1/calendar?date=2026-05-01&limit=300')
    const rows = body.data.data.meeting
    expect(rows.length).toBeGreaterThan(100)
    for (const r of rows) {
      expect(r.date >= '2026-05-01' && r.date <= '2026-05-31').toBe(true)
      expect(r.title).toBe('2025年年度股东大会')
      expect(r.record_date < r.date && r.notice_date < r.record_date).toBe(true)
      expect(r.resolution_date).toBe(r.date)
    }
    const dates = rows.map((r: { date: string }) => r.date)
    expect(dates).toEqual([...dates].sort())
    // The same stories /v1/dividend tells: the plan is approved (or implemented) and goes ex after the meeting.
    for (const r of rows.slice(0, 3)) {
      const plans = (await getJson(`/v1/dividend?code=${r.code}&years=2`)).body.data
      const plan = plans.find((p: { report_date: string }) => p.report_date === '2025-12-31')
      expect(plan, r.code).toBeDefined()
      expect(['approved', 'implemented']).toContain(plan.status)
      expect(plan.ex_date > r.date).toBe(true)
    }
  })

  it('a meeting ahead has no resolution yet, and the plan it will vote on is still proposed', async () => {
    await resetWorld('2026-05-15T10:30:00+08:00')
    const rows = (await getJson('/v1/calendar?date=2026-05-20&limit=50')).body.data.data.meeting
    expect(rows.length).toBeGreaterThan(0)
    for (const r of rows) expect(r.resolution_date).toBeNull()
    const plans = (await getJson(`/v1/dividend?code=${rows[0].code}&years=2`)).body.data
    expect(plans.find((p: { report_date: string }) => p.report_date === '2025-12-31').status).toBe('proposed')
  })

  it('rights_issue rows are the announced rights issues, sized on the stock\'s shares and priced below its close', async () => {
    const rows = (await getJson('/v1/calendar?date=2026-10-08')).body.data.data.rights_issue
    const expected = market
      .instruments()
      .map((i) => ({ i, r: rightsIssueOf(i) }))
      .filter(({ r }) => r && r.record >= '2026-10-08' && r.record <= '2026-11-07' && r.notice <= '2026-10-22')
    expect(expected.length).toBeGreaterThan(0)
    expect(rows.map((r: { code: string }) => r.code)).toEqual(expected.map(({ i }) => i.code))
    for (const row of rows) {
      const inst = market.byCode(row.code)!
      const r = rightsIssueOf(inst)!
      expect(row).toMatchObject({ date: r.record, ratio_per_10: r.ratioPer10, ex_date: r.ex, notice_date: r.notice, shares_before: inst.totalShares })
      expect(row.shares_after).toBe(row.shares_before + row.shares)
      expect(row.shares).toBe(Math.round((inst.totalShares! * r.ratioPer10) / 10))
      const close = market.dailyBars(inst, '2026-09-01', r.notice, NOW).filter((b) => b.date < r.notice).at(-1)!.close
      expect(row.price).toBeLessThan(close)
      expect(row.price).toBeGreaterThan(close * 0.6)
    }
  })

  it('answers ok:false UPSTREAM_UNAVAILABLE when the upstream fails', async () => {
    await fault('eastmoney', 'http')
    const { status, body } = await getJson('/v1/calendar')
    expect(status).toBe(200)
    expect(body).toMatchObject({ ok: false, code: 'UPSTREAM_UNAVAILABLE' })
    expect(body.errors.dividend).toMatch(/eastmoney: http/)
  })

  it('answers ok:false NO_DATA, not counted, when every channel answers that it has nothing', async () => {
    await fault('eastmoney', 'empty')
    const { status, body } = await getJson('/v1/calendar')
    expect(status).toBe(200)
    expect(body).toMatchObject({ ok: false, code: 'NO_DATA' })
    await new Promise((r) => setTimeout(r, 50)) // settlement runs in waitUntil
    const usage = (await getJson('/v1/usage')).body.data
    expect(usage.endpoints.calendar).toBeUndefined()
  })

  it('refuses bad dates and limits with a 422 naming the field, and a call without a key with 401', async () => {
    for (const [qs, field] of [['date=2026-02-30', 'date'], ['date=20261008', 'date'], ['limit=0', 'limit'], ['limit=501', 'limit'], ['limit=x', 'limit']]) {
      const { status, body } = await getJson(`/v1/calendar?${qs}`)
      expect(status, qs).toBe(422)
      expect(body.detail[0].loc).toEqual(['query', field])
    }
    expect((await getJson('/v1/calendar', ANONYMOUS)).status).toBe(401)
  })
})
