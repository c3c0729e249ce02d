import { createExecutionContext, createScheduledController, env as testEnv } from 'cloudflare:test'
import fc from 'fast-check'
import { beforeEach, describe, expect, it } from 'vitest'
import { tradingDaysBetween } from '../src/domain/trading-calendar'
import { createEmulatorFetch } from '../src/emulator/control'
import { market } from '../src/emulator/market'
import { INVENTED_2027 } from '../src/emulator/wire/szse'
import { refreshCalendar } from '../src/jobs/calendar-refresh'
import { services } from '../src/emulator/worker'
import { CALENDAR_KEY } from '../src/store/calendar-source'
import { call, getJson, resetWorld } from './helpers'

const env = testEnv as unknown as Env
const COLUMNS = ['date', 'is_trading_day', 'is_week_last', 'is_quarter_last', 'is_year_last', 'is_month_last']

const get = (qs: string) => getJson('/v1/trade-calendar' + qs)

async function ok(qs: string) {
  const r = await get(qs)
  expect(r.status, JSON.stringify(r.body).slice(0, 400)).toBe(200)
  expect(r.body.ok, JSON.stringify(r.body).slice(0, 400)).toBe(true)
  return r.body
}

/** The 422 for `qs`, with the distinct fields its issues name. */
async function refused(qs: string): Promise<string[]> {
  const r = await get(qs)
  expect(r.status, `${qs} → ${JSON.stringify(r.body).slice(0, 300)}`).toBe(422)
  for (const d of r.body.detail) {
    expect(d.loc[0]).toBe('query')
    expect(typeof d.msg).toBe('string')
  }
  return [...new Set<string>(r.body.detail.map((d: any) => d.loc[1]))]
}

const rowOf = (body: any, date: string) => body.structured.find((r: any) => r.date === date)
const trueFlags = (row: any) => COLUMNS.filter((k) => k !== 'date' && row[k] === true)

describe('GET /v1/trade-calendar', () => {
  beforeEach(async () => {
    await resetWorld()
    await env.STORE.delete(CALENDAR_KEY)
    services.store.forgetCalendar()
  })

  describe('modes', () => {
    it('answers the current month (Beijing, by the service clock) without parameters', async () => {
      const body = await ok('')
      expect(body).toMatchObject({ endpoint: 'trade-calendar', source: 'calendar', mode: 'month', range: { start: '2026-11-01', end: '2026-11-30' } })
      expect(body).toMatchObject({ total: 30, returned: 30, offset: 0, limit: 400, has_more: false, trading_only: false, published_through: '2026-12-31' })
      expect(body.structured.map((r: any) => r.date)).toEqual(Array.from({ length: 30 }, (_, i) => `2026-11-${String(i + 1).padStart(2, '0')}`))
      expect(trueFlags(rowOf(body, '2026-11-27'))).toEqual(['is_trading_day', 'is_week_last'])
      expect(trueFlags(rowOf(body, '2026-11-30'))).toEqual(['is_trading_day', 'is_month_last'])
      expect(body.next_offset).toBeUndefined()
      expect(body.notice).toBeUndefined()
    })

    it('follows the clock across a month end in Beijing time', async () => {
      await resetWorld('2026-11-30T16:30:00Z') // 00:30 on 1 December in Beijing
      expect((await ok('')).range).toEqual({ start: '2026-12-01', end: '2026-12-31' })
    })

    it('answers one date, with the documented columns in order, as a table and as rows', async () => {
      const body = await ok('?date=2025-09-30')
      expect(body.mode).toBe('date')
      expect(body.structured).toEqual([{ date: '2025-09-30', is_trading_day: true, is_week_last: true, is_quarter_last: true, is_year_last: false, is_month_last: true }])
      expect(Object.keys(body.structured[0])).toEqual(COLUMNS)
      expect(body.data).toBe(`| ${COLUMNS.join(' | ')} |\n| --- | --- | --- | --- | --- | --- |\n| 2025-09-30 | true | true | true | false | true |\n`)
    })

    it('answers a range, every calendar day ascending', async () => {
      const body = await ok('?start=2025-09-25&end=2025-10-10')
      expect(body).toMatchObject({ mode: 'range', total: 16, returned: 16, has_more: false })
      expect(body.structured[0].date).toBe('2025-09-25')
      expect(body.structured.at(-1).date).toBe('2025-10-10')
      expect(rowOf(body, '2025-10-01')).toMatchObject({ is_trading_day: false, is_week_last: false, is_month_last: false })
      expect(body.data.trim().split('\n')).toHaveLength(2 + 16)
    })

    it('answers a whole year in one page', async () => {
      const body = await ok('?year=2025')
      expect(body).toMatchObject({ mode: 'year', range: { start: '2025-01-01', end: '2025-12-31' }, total: 365, returned: 365, has_more: false })
      const lasts = (k: string) => body.structured.filter((r: any) => r[k]).map((r: any) => r.date)
      expect(lasts('is_year_last')).toEqual(['2025-12-31'])
      expect(lasts('is_quarter_last')).toEqual(['2025-03-31', '2025-06-30', '2025-09-30', '2025-12-31'])
      expect(lasts('is_month_last')).toHaveLength(12)
      expect(lasts('is_month_last')).toContain('2025-01-27')
    })

    it('keeps only trading days with trading_only (true, 1, True), and every day with false or 0', async () => {
      const sessions = tradingDaysBetween('2025-01-01', '2025-12-31')
      for (const t of ['true', '1', 'True']) {
        const body = await ok(`?year=2025&trading_only=${t}`)
        expect(body.trading_only).toBe(true)
        expect(body.structured.map((r: any) => r.date)).toEqual(sessions)
        expect(body.total).toBe(sessions.length)
      }
      for (const t of ['false', '0', 'False']) expect((await ok(`?year=2025&trading_only=${t}`)).total).toBe(365)
    })

    it('answers a closed date with trading_only as an empty page, not an error', async () => {
      const body = await ok('?date=2025-10-01&trading_only=true')
      expect(body).toMatchObject({ total: 0, returned: 0, structured: [], has_more: false })
      expect(body.data).toBe(`| ${COLUMNS.join(' | ')} |\n| --- | --- | --- | --- | --- | --- |\n`)
    })
  })

  describe('flags on known dates', () => {
    it.each([
      ['2025-09-30', ['is_trading_day', 'is_week_last', 'is_quarter_last', 'is_month_last']],
      ['2024-12-31', ['is_trading_day', 'is_quarter_last', 'is_year_last', 'is_month_last']],
      ['2025-01-27', ['is_trading_day', 'is_week_last', 'is_month_last']],
      ['2026-09-30', ['is_trading_day', 'is_week_last', 'is_quarter_last', 'is_month_last']],
      ['2020-01-23', ['is_trading_day', 'is_week_last', 'is_month_last']],
      ['2023-12-29', ['is_trading_day', 'is_week_last', 'is_quarter_last', 'is_year_last', 'is_month_last']],
      ['2016-01-04', ['is_trading_day']],
      ['2025-10-01', []],
      ['2023-12-31', []],
    ])('%s', async (date, flags) => {
      expect(trueFlags((await ok(`?date=${date}`)).structured[0])).toEqual(flags)
    })
  })

  describe('paging', () => {
    it('fills an automatic page with 400 rows of a long range and says more exist', async () => {
      const first = await ok('?start=2024-01-01&end=2025-12-31')
      expect(first).toMatchObject({ total: 731, returned: 400, offset: 0, limit: 400, has_more: true, next_offset: 400 })
      expect(first.notice).toMatch(/rows 1–400 of 731.*offset=400/)
      expect(first.structured.at(-1).date).toBe('2025-02-03')
      const second = await ok('?start=2024-01-01&end=2025-12-31&offset=400&limit=0')
      expect(second).toMatchObject({ total: 731, returned: 331, offset: 400, has_more: false })
      expect(second.structured[0].date).toBe('2025-02-04')
      expect(second.next_offset).toBeUndefined()
    })

    it('caps rows with a positive limit and pages with offset', async () => {
      const body = await ok('?year=2025&trading_only=true&limit=10&offset=5')
      expect(body).toMatchObject({ returned: 10, offset: 5, limit: 10, has_more: true, next_offset: 15 })
      expect(body.structured.map((r: any) => r.date)).toEqual(tradingDaysBetween('2025-01-01', '2025-12-31').slice(5, 15))
    })

    it('returns a long range whole with an explicit limit', async () => {
      const body = await ok('?start=2016-01-01&end=2025-12-31&trading_only=1&limit=3700')
      expect(body.returned).toBe(body.total)
      expect(body.total).toBe(tradingDaysBetween('2016-01-01', '2025-12-31').length)
      expect(body.has_more).toBe(false)
    })

    it('answers an offset past the end with an empty page and says why', async () => {
      const body = await ok('?date=2025-09-30&offset=3')
      expect(body).toMatchObject({ total: 1, returned: 0, has_more: false, structured: [] })
      expect(body.notice).toMatch(/past the last/)
    })
  })

  describe('validation (422 naming the field)', () => {
    it.each([
      ['?date=2025-9-30', ['date']],
      ['?date=2025-02-30', ['date']],
      ['?date=2015-12-31', ['date']],
      ['?start=2025-01-01', ['end']],
      ['?end=2025-01-01', ['start']],
      ['?start=2025-03-01&end=2025-01-01', ['start']],
      ['?start=2015-06-01&end=2016-01-31', ['start']],
      ['?start=2016-01-01&end=2026-12-31', ['end']],
      ['?start=2025-01-01&end=nope', ['end']],
      ['?year=2025&date=2025-01-02', ['year']],
      ['?year=2025&start=2025-01-01&end=2025-02-01', ['year']],
      ['?year=2025&end=2025-02-01', ['year', 'start']],
      ['?date=2025-01-02&start=2025-01-01&end=2025-02-01', ['date']],
      ['?year=25', ['year']],
      ['?year=20250', ['year']],
      ['?year=abcd', ['year']],
      ['?year=2015', ['year']],
      ['?trading_only=yes', ['trading_only']],
      ['?trading_only=', ['trading_only']],
      ['?trading_only=2', ['trading_only']],
      ['?limit=-1', ['limit']],
      ['?limit=1.5', ['limit']],
      ['?limit=x', ['limit']],
      ['?limit=3701', ['limit']],
      ['?offset=-1', ['offset']],
      ['?offset=x', ['offset']],
    ])('%s', async (qs, fields) => {
      expect((await refused(qs)).sort()).toEqual([...fields].sort())
    })

    it('never answers 500, whatever the query', async () => {
      const names = fc.constantFrom('date', 'start', 'end', 'year', 'trading_only', 'limit', 'offset', 'x')
      const values = fc.oneof(
        fc.string(),
        fc.constantFrom('2016-01-01', '2025-09-30', '2099-12-31', '9999-12-31', '0000-01-01', '2027', '1999', '9999', 'true', '0', '-1', '400', '3700', '1e3', 'NaN')
      )
      await fc.assert(
        fc.asyncProperty(fc.array(fc.tuple(names, values), { maxLength: 5 }), async (pairs) => {
          const qs = new URLSearchParams(pairs).toString()
          const res = await call(`/v1/trade-calendar?${qs}`)
          const text = await res.text()
          expect(res.status, `?${qs} → ${text.slice(0, 200)}`).toBeLessThan(500)
        }),
        { numRuns: 80 }
      )
    })

    it('explains a mutually exclusive pair in words', async () => {
      const r = await get('?year=2025&date=2025-01-02')
      expect(r.body.detail[0]).toMatchObject({ loc: ['query', 'year'], input: '2025' })
      expect(r.body.detail[0].msg).toMatch(/year cannot be combined with date/)
    })
  })

  describe('years not published yet', () => {
    it('answers ok:false NOT_PUBLISHED for a year it does not know, never guessing weekdays', async () => {
      const r = await get('?year=2028')
      expect(r.status).toBe(200)
      expect(r.body).toMatchObject({ ok: false, code: 'NOT_PUBLISHED', data: '', structured: [], total: 0, unpublished_years: [2028], published_through: '2026-12-31' })
      expect(r.body.error).toMatch(/2028 is not published yet.*through 2026-12-31/)
      expect((await get('?date=2027-03-01')).body).toMatchObject({ ok: false, code: 'NOT_PUBLISHED' })
    })

    it('says so when the current month lies in an unpublished year (the calendar never silently expires)', async () => {
      await resetWorld('2027-01-05T10:00:00+08:00')
      const r = await get('')
      expect(r.body).toMatchObject({ ok: false, code: 'NOT_PUBLISHED', mode: 'month', range: { start: '2027-01-01', end: '2027-01-31' } })
    })

    it('serves the known part of a range and names the years left out', async () => {
      const body = await ok('?start=2026-12-01&end=2027-01-31')
      expect(body).toMatchObject({ total: 31, returned: 31, unpublished_years: [2027], has_more: false })
      expect(body.structured.at(-1).date).toBe('2026-12-31')
      expect(body.notice).toMatch(/2027 are left out/)
      // Thursday 31 December 2026: 1 January is a holiday every year, so it ends its week too.
      expect(trueFlags(rowOf(body, '2026-12-31'))).toEqual(['is_trading_day', 'is_week_last', 'is_quarter_last', 'is_year_last', 'is_month_last'])
    })
  })

  describe('the refreshed calendar', () => {
    const refresh = async () => {
      const now = Date.parse('2026-11-20T20:00:00Z')
      await refreshCalendar(createScheduledController({ scheduledTime: now, cron: '0 20 * * *' }), env, createExecutionContext(), {
        fetch: createEmulatorFetch(market),
        now: () => now,
        forgetCalendar: services.store.forgetCalendar,
      })
    }

    it('takes precedence once the job has learnt a new year from SZSE', async () => {
      expect((await get('?date=2027-02-09')).body.code).toBe('NOT_PUBLISHED')
      await refresh()
      const body = await ok('?date=2027-02-09')
      expect(body.source).toBe('emulator:calendar:szse')
      expect(body.structured[0]).toMatchObject({ date: '2027-02-09', is_trading_day: false })
      expect(body).toMatchObject({ published_through: '2027-12-31', refreshed: '2026-11-21T04:00:00+08:00' })
      expect(body.unpublished_years).toBeUndefined()

      const year = await ok('?year=2027&trading_only=true')
      expect(year.total).toBe(261 - INVENTED_2027.length) // 261 weekdays in 2027
      // Thursday 4 February 2027: the last session before the (invented) Spring Festival closure.
      expect(trueFlags(rowOf(year, '2027-02-04'))).toEqual(['is_trading_day', 'is_week_last'])
      expect(rowOf(year, '2027-12-31')).toMatchObject({ is_year_last: true })
    })

    it('labels rows of bundled years as the bundled calendar', async () => {
      await refresh()
      expect((await ok('?date=2025-09-30')).source).toBe('calendar')
      // 2026 was confirmed by the exchange in the same run.
      expect((await ok('?date=2026-09-30')).source).toBe('emulator:calendar:szse')
    })
  })
})
