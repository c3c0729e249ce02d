import { beforeEach, describe, expect, it } from 'vitest'
import { EVENT_TAGS } from '../src/data/event-tags'
import { addDays } from '../src/domain/dates'
import { tradingDaysBetween } from '../src/domain/trading-calendar'
import { market } from '../src/emulator/market/index'
import { fault, getJson, makeKey, resetWorld } from './helpers'

const bearer = (key: string) => ({ headers: { authorization: `Bearer ${key}` } })
const NOW = Date.parse('2026-11-20T10:30:00+08:00')
const stocks = market.instruments().filter((i) => i.kind === 'stock')

/** A stock that was suspended for a while in the last year and has traded since. */
const SUSPENDED = stocks.find((i) => {
  if (i.listDate > '2025-01-01') return false
  const bars = market.dailyBars(i, '2025-12-01', '2026-11-19', NOW)
  return bars.length > 0 && bars.length < tradingDaysBetween('2025-12-01', '2026-11-19').length && bars.at(-1)!.date === '2026-11-19'
})

describe('GET /v1/events', () => {
  beforeEach(() => resetWorld())

  it('lists a year of events newest first with all 42 tags, the unserved ones unknown rather than false', async () => {
    const { status, body } = await getJson('/v1/events?code=sh600519')
    expect(status).toBe(200)
    expect(body).toMatchObject({ ok: true, endpoint: 'events', source: 'emulator:eastmoney', as_of: '2026-11-20' })
    const { from, events, tags } = body.data
    expect(from).toBe('2025-11-20')
    expect(tags.map((t: any) => t.tag)).toEqual(EVENT_TAGS.map((e) => e.tag))
    expect(tags).toHaveLength(42)
    for (const t of tags) {
      if (!t.served) expect(t).toMatchObject({ applies: null, latest_date: null, fact: null })
      else expect(typeof t.applies).toBe('boolean')
    }
    const dates = events.map((e: any) => e.date)
    expect([...dates].sort().reverse()).toEqual(dates)
    for (const e of events) {
      expect(e.date >= from).toBe(true)
      expect(e.tag).not.toBeNull()
    }
    // The latest date of a tag is its newest event.
    for (const t of tags.filter((x: any) => x.applies)) expect(t.latest_date).toBe(events.find((e: any) => e.tag === t.tag).date)
  })

  it('tells the same dividend as /v1/dividend: its ex-date and record date', async () => {
    const dividend = (await getJson('/v1/dividend?code=sh600519&years=1')).body.data.find((r: any) => r.status === 'implemented')
    const events = (await getJson('/v1/events?code=sh600519')).body.data.events
    expect(events).toContainEqual(expect.objectContaining({ date: dividend.ex_date, tag: 'ex_dividend', title: '除权除息' }))
    expect(events).toContainEqual(expect.objectContaining({ date: dividend.record_date, tag: 'record_date' }))
    expect(events).toContainEqual(expect.objectContaining({ date: dividend.plan_notice_date, tag: 'dividend_plan' }))
  })

  it('dates the periodic reports on the day the shareholder report was published, and lists the next one ahead', async () => {
    const holders = (await getJson('/v1/shareholder?code=sh600519')).body.data.data.top10_holders
    const events = (await getJson('/v1/events?code=sh600519')).body.data.events
    const reports = events.filter((e: any) => e.tag === 'earnings_report')
    expect(reports.map((e: any) => e.date)).toContain(holders[0].notice_date)
    expect(reports[0]).toMatchObject({ date: holders[0].notice_date, detail: '披露2026三季报' })
    // Before that day the report date is listed ahead as scheduled.
    await resetWorld('2026-10-01T10:30:00+08:00')
    const before = (await getJson('/v1/events?code=sh600519')).body.data.events.filter((e: any) => e.tag === 'earnings_report')
    expect(before[0]).toMatchObject({ date: holders[0].notice_date, detail: '预约披露2026三季报' })
  })

  it('marks suspensions and resumptions on the days /v1/kline has no bars', async () => {
    expect(SUSPENDED).toBeDefined()
    const { body } = await getJson(`/v1/events?code=${SUSPENDED!.code}`)
    const tags = Object.fromEntries(body.data.tags.map((t: any) => [t.tag, t]))
    expect(tags.suspension.applies).toBe(true)
    expect(tags.resumption.applies).toBe(true)
    const halt = tags.suspension.latest_date
    const kline = (await getJson(`/v1/kline?code=${SUSPENDED!.code}&start=${addDays(halt, -10)}&end=${halt}`)).body.data
    expect(kline.map((r: any) => r.date)).not.toContain(halt)
  })

  it('answers ok:false, not counted, when Eastmoney fails', async () => {
    const key = await makeKey('trial')
    await fault('eastmoney', 'http')
    const { body } = await getJson('/v1/events?code=sh600519', bearer(key))
    expect(body).toMatchObject({ ok: false, code: 'UPSTREAM_UNAVAILABLE' })
    for (const t of body.data.tags) expect(t.applies).toBeNull()
    await new Promise((r) => setTimeout(r, 50))
    expect((await getJson('/v1/usage', bearer(key))).body.data.endpoints).toEqual({})
  })

  it('answers ok:false NO_DATA for a code the market does not have', async () => {
    const unknown = Array.from({ length: 1000 }, (_, i) => `sh60${String(i).padStart(4, '0')}`).find((c) => !market.byCode(c))!
    expect((await getJson(`/v1/events?code=${unknown}`)).body).toMatchObject({ ok: false, code: 'NO_DATA' })
  })

  it.each([
    ['', 'code'],
    ['?code=sh600519,sz000001', 'code'],
    ['?code=sz399001', 'code'],
    ['?code=hk00700', 'code'],
  ])('answers 422 for %s naming %s', async (qs, field) => {
    const { status, body } = await getJson('/v1/events' + qs)
    expect(status).toBe(422)
    expect(body.detail[0].loc).toEqual(['query', field])
  })

  it('needs a key', async () => {
    expect((await getJson('/v1/events?code=sh600519', { anonymous: true })).status).toBe(401)
  })
})
