import { env as testEnv } from 'cloudflare:test'
import { afterEach, describe, expect, it } from 'vitest'
import { SSE_HOLIDAYS } from '../data/holidays'
import { CALENDAR_CACHE_MS, CALENDAR_KEY, CalendarCache, parseCalendarDoc, tableOf } from './calendar-source'

const env = testEnv as unknown as Env
const Y2027 = ['2027-01-01', '2027-02-08', '2027-10-01']
const doc = (years: Record<string, string[]>) => ({ source: 'szse', refreshed: '2026-11-20T20:00:00.000Z', years })

describe('parseCalendarDoc', () => {
  it('accepts the job\'s format', () => {
    expect(parseCalendarDoc(doc({ 2027: Y2027 }))).toEqual({ doc: doc({ 2027: Y2027 }) })
  })

  it.each([
    ['not an object', null],
    ['another source', { ...doc({}), source: 'sse' }],
    ['a bad instant', { ...doc({}), refreshed: 'yesterday' }],
    ['a bad year key', doc({ '27': [] })],
    ['a date of another year', doc({ 2027: ['2026-12-31'] })],
    ['a weekend day', doc({ 2027: ['2027-01-02'] })],
    ['unsorted dates', doc({ 2027: ['2027-02-08', '2027-01-01'] })],
    ['not a list', { ...doc({}), years: { 2027: '2027-01-01' } }],
  ])('refuses %s', (_why, json) => {
    expect(parseCalendarDoc(json)).toHaveProperty('error')
  })
})

describe('tableOf', () => {
  it('is the bundled table without a document', () => {
    const t = tableOf(undefined)
    expect(t.knows(2026)).toBe(true)
    expect(t.knows(2027)).toBe(false)
    expect(t.origin(2025)).toBe('bundled')
    expect(t.lastContiguousYear()).toBe(2026)
    expect(t.refreshed).toBeUndefined()
  })

  it('adds refreshed years and lets them replace bundled ones', () => {
    const t = tableOf(doc({ 2025: SSE_HOLIDAYS[2025].filter((d) => d !== '2025-06-02'), 2027: Y2027 }) as any)
    expect(t.origin(2025)).toBe('szse')
    expect(t.isTradingDay('2025-06-02')).toBe(true)
    expect(t.origin(2024)).toBe('bundled')
    expect(t.isTradingDay('2027-02-08')).toBe(false)
    expect(t.lastContiguousYear()).toBe(2027)
    expect(t.refreshed).toBe('2026-11-20T20:00:00.000Z')
  })

  it('guesses only weekdays but 1 January in an unknown year, to look across the year end', () => {
    const t = tableOf(undefined)
    expect(t.isTradingDay('2027-01-01')).toBe(false)
    expect(t.isTradingDay('2027-01-04')).toBe(true)
    expect(t.isTradingDay('2027-01-02')).toBe(false)
  })
})

describe('CalendarCache', () => {
  afterEach(async () => {
    await env.STORE.delete(CALENDAR_KEY)
  })

  it('reads R2 once per cache period, and again once forgotten', async () => {
    const calendar = new CalendarCache()
    const t0 = 1_000_000
    expect((await calendar.load(env.STORE, t0)).knows(2027)).toBe(false)
    await env.STORE.put(CALENDAR_KEY, JSON.stringify(doc({ 2027: Y2027 })))
    expect((await calendar.load(env.STORE, t0 + CALENDAR_CACHE_MS - 1)).knows(2027)).toBe(false)
    expect((await calendar.load(env.STORE, t0 + CALENDAR_CACHE_MS)).knows(2027)).toBe(true)
    await env.STORE.delete(CALENDAR_KEY)
    expect((await calendar.load(env.STORE, t0 + CALENDAR_CACHE_MS + 1)).knows(2027)).toBe(true)
    calendar.forget()
    expect((await calendar.load(env.STORE, t0 + CALENDAR_CACHE_MS + 2)).knows(2027)).toBe(false)
  })

  it('serves the bundled table when the document is damaged', async () => {
    await env.STORE.put(CALENDAR_KEY, '{"source":"szse"')
    const t = await new CalendarCache().load(env.STORE, 5_000_000)
    expect(t.knows(2026)).toBe(true)
    expect(t.origin(2026)).toBe('bundled')
  })
})
