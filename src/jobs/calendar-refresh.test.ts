import { createExecutionContext, createScheduledController, env as testEnv } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { SSE_HOLIDAYS } from '../data/holidays'
import { handleSzse, INVENTED_2027 } from '../emulator/wire/szse'
import { CALENDAR_KEY, CalendarCache } from '../store/calendar-source'
import { refreshCalendar, runRecordKey, type CalendarRunRecord } from './calendar-refresh'

const env = testEnv as unknown as Env
const NOV_2026 = Date.parse('2026-11-20T20:00:00Z') // 04:00 Beijing, 21 November 2026

/** The emulated SZSE, optionally tampered with per URL; counts requests. */
function szse(tamper?: (url: URL, res: Response) => Response | Promise<Response>) {
  const seen: string[] = []
  const fetch = (async (input: RequestInfo | URL) => {
    const url = new URL(input instanceof Request ? input.url : String(input))
    seen.push(url.searchParams.get('month') ?? '')
    const res = handleSzse(url, Date.now())
    return tamper ? tamper(url, res) : res
  }) as typeof globalThis.fetch
  return { fetch, seen }
}

/** The service's copy of the calendar, as one `Services` keeps it. */
let calendar = new CalendarCache()

async function run(fetch: typeof globalThis.fetch, now = NOV_2026) {
  const deps = { fetch, now: () => now, forgetCalendar: () => calendar.forget() }
  await refreshCalendar(createScheduledController({ scheduledTime: now, cron: '0 20 * * *' }), env, createExecutionContext(), deps)
}

const readJson = async (key: string) => (await (await env.STORE.get(key))?.json()) as any
const record = (date: string) => readJson(runRecordKey(date)) as Promise<CalendarRunRecord>

describe('refreshCalendar', () => {
  beforeEach(async () => {
    await env.STORE.delete([CALENDAR_KEY, runRecordKey('2026-11-21'), runRecordKey('2027-06-02')])
    calendar = new CalendarCache()
  })

  it('learns the current and the next year from SZSE, month by month, and records the run', async () => {
    const { fetch, seen } = szse()
    await run(fetch)
    expect(seen).toEqual([...Array.from({ length: 12 }, (_, i) => `2026-${i + 1}`), ...Array.from({ length: 12 }, (_, i) => `2027-${i + 1}`)])
    const doc = await readJson(CALENDAR_KEY)
    expect(doc).toMatchObject({ source: 'szse', refreshed: '2026-11-20T20:00:00.000Z' })
    expect(doc.years).toEqual({ 2026: SSE_HOLIDAYS[2026], 2027: INVENTED_2027 })
    const rec = await record('2026-11-21')
    expect(rec).toMatchObject({ job: 'calendar-refresh', requests: 24, wrote: true })
    expect(rec.years['2026']).toEqual({ status: 'ok', closed: SSE_HOLIDAYS[2026].length, added: [], removed: [] })
    expect(rec.years['2027']).toMatchObject({ status: 'ok', added: INVENTED_2027, removed: [] })
  })

  it('makes the new year visible to the service at once', async () => {
    expect((await calendar.load(env.STORE)).knows(2027)).toBe(false)
    await run(szse().fetch)
    const table = await calendar.load(env.STORE)
    expect(table.knows(2027)).toBe(true)
    expect(table.origin(2027)).toBe('szse')
    expect(table.isTradingDay('2027-02-09')).toBe(false)
    expect(table.isTradingDay('2027-02-15')).toBe(true)
  })

  it('is idempotent: a second run changes nothing', async () => {
    await run(szse().fetch)
    const first = await readJson(CALENDAR_KEY)
    await run(szse().fetch, NOV_2026 + 3_600_000)
    expect(await readJson(CALENDAR_KEY)).toEqual(first)
    const rec = await record('2026-11-21')
    expect(rec.wrote).toBe(false)
    expect(rec.years['2027']).toMatchObject({ status: 'ok', added: [], removed: [] })
  })

  it('stops asking for a year SZSE has not published, and keeps what it knew', async () => {
    await run(szse().fetch)
    const { fetch, seen } = szse()
    const june2027 = Date.parse('2027-06-02T02:00:00Z')
    await run(fetch, june2027)
    expect(seen).toHaveLength(13) // twelve months of 2027, then January 2028 answers nothing
    const rec = await record('2027-06-02')
    expect(rec.years['2028']).toEqual({ status: 'unpublished', month: 1 })
    expect(rec.wrote).toBe(false)
    expect(Object.keys((await readJson(CALENDAR_KEY)).years)).toEqual(['2026', '2027'])
  })

  it('rejects a year with a month that does not add up, keeping the good year', async () => {
    const weekendTrading = async (url: URL, res: Response) => {
      if (url.searchParams.get('month') !== '2027-3') return res
      const body = (await res.json()) as { data: Array<{ jyrq: string; jybz: string }> }
      return Response.json({ data: body.data.map((r) => (r.jyrq === '2027-03-06' ? { ...r, jybz: '1' } : r)) })
    }
    const { fetch, seen } = szse(weekendTrading)
    await run(fetch)
    expect(seen).toHaveLength(12 + 3)
    const rec = await record('2026-11-21')
    expect(rec.years['2027']).toEqual({ status: 'invalid', month: 3, reason: '2027-03-06 is a weekend day marked as trading' })
    expect(Object.keys((await readJson(CALENDAR_KEY)).years)).toEqual(['2026'])
  })

  it('rejects a placeholder year that trades on every weekday', async () => {
    const allOpen = async (url: URL, res: Response) => {
      if (!url.searchParams.get('month')?.startsWith('2027-')) return res
      const body = (await res.json()) as { data: Array<{ jyrq: string; jybz: string; zrxh: number }> }
      return Response.json({ data: body.data.map((r) => ({ ...r, jybz: r.zrxh === 1 || r.zrxh === 7 ? '0' : '1' })) })
    }
    await run(szse(allOpen).fetch)
    expect((await record('2026-11-21')).years['2027']).toMatchObject({ status: 'invalid', reason: '2027-01-01 is a statutory holiday but is marked as trading' })
  })

  it('leaves the stored calendar alone when SZSE cannot be reached', async () => {
    await run(szse().fetch)
    const before = await readJson(CALENDAR_KEY)
    const down = (async () => {
      throw new TypeError('fetch failed')
    }) as unknown as typeof fetch
    await run(down, NOV_2026 + 60_000)
    expect(await readJson(CALENDAR_KEY)).toEqual(before)
    const rec = await record('2026-11-21')
    expect(rec).toMatchObject({ wrote: false, requests: 2 })
    expect(rec.years['2026']).toMatchObject({ status: 'failed', month: 1 })
  })

  it('rebuilds a damaged stored document and says so', async () => {
    await env.STORE.put(CALENDAR_KEY, '{"source":"szse","refreshed":"x","years":{}}')
    await run(szse().fetch)
    const rec = await record('2026-11-21')
    expect(rec.stored_error).toMatch(/refreshed/)
    expect(rec.wrote).toBe(true)
    expect(Object.keys((await readJson(CALENDAR_KEY)).years)).toEqual(['2026', '2027'])
  })
})
