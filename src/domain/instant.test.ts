import { describe, expect, it } from 'vitest'
import { barAsOf, beijingInstant, beijingStampInstant, easternInstant, easternOffsetMinutes, exchangeInstant, instantMs, isoInstant, newestAsOf, oldestAsOf, quoteAsOf, reformInstant } from './instant'

describe('isoInstant', () => {
  const ms = Date.UTC(2026, 10, 20, 2, 30, 3, 789) // 10:30:03.789 Beijing

  it('writes Beijing time with its offset, to the second, by default', () => {
    expect(isoInstant(ms)).toBe('2026-11-20T10:30:03+08:00')
  })

  it('writes any offset, west of UTC too, never Z or milliseconds', () => {
    expect(isoInstant(ms, -300)).toBe('2026-11-19T21:30:03-05:00')
    expect(isoInstant(ms, 0)).toBe('2026-11-20T02:30:03+00:00')
    expect(isoInstant(ms, 330)).toBe('2026-11-20T08:00:03+05:30')
  })

  it('crosses midnight into the local date', () => {
    expect(isoInstant(Date.UTC(2026, 10, 20, 16, 0, 0))).toBe('2026-11-21T00:00:00+08:00')
  })

  it('rewrites a stored UTC ISO stamp in the one form', () => {
    expect(reformInstant('2026-11-23T17:00:00.000Z')).toBe('2026-11-24T01:00:00+08:00')
    expect(reformInstant('2026-11-24T01:00:00+08:00')).toBe('2026-11-24T01:00:00+08:00')
  })

  it('reads back to the same second', () => {
    expect(instantMs(isoInstant(ms))).toBe(Date.UTC(2026, 10, 20, 2, 30, 3))
    expect(instantMs(isoInstant(ms, -240))).toBe(Date.UTC(2026, 10, 20, 2, 30, 3))
  })
})

describe('wall-clock instants', () => {
  it('writes a Beijing date and time, with or without seconds', () => {
    expect(beijingInstant('2026-11-20', '10:30:03')).toBe('2026-11-20T10:30:03+08:00')
    expect(beijingInstant('2026-11-20', '15:00')).toBe('2026-11-20T15:00:00+08:00')
    expect(beijingStampInstant('2026-11-20 10:30:00')).toBe('2026-11-20T10:30:00+08:00')
  })

  it('gives US Eastern time its own offset, -04:00 under DST and -05:00 outside it', () => {
    expect(easternInstant('2026-07-01', '10:00:00')).toBe('2026-07-01T10:00:00-04:00')
    expect(easternInstant('2026-11-20', '16:00:00')).toBe('2026-11-20T16:00:00-05:00')
    // 2026: DST from 8 March to 1 November.
    expect(easternInstant('2026-03-06', '16:00:00')).toBe('2026-03-06T16:00:00-05:00')
    expect(easternInstant('2026-03-09', '09:30:00')).toBe('2026-03-09T09:30:00-04:00')
    expect(easternInstant('2026-10-30', '16:00:00')).toBe('2026-10-30T16:00:00-04:00')
    expect(easternInstant('2026-11-02', '09:30:00')).toBe('2026-11-02T09:30:00-05:00')
    expect(easternOffsetMinutes(Date.UTC(2026, 6, 1))).toBe(-240)
    expect(easternOffsetMinutes(Date.UTC(2026, 0, 1))).toBe(-300)
  })

  it('picks the clock by the instrument: US Eastern for US listings, Beijing for the rest', () => {
    expect(exchangeInstant('us', '2026-11-20', '16:00:00')).toBe('2026-11-20T16:00:00-05:00')
    expect(exchangeInstant('hk', '2026-11-20', '16:08:00')).toBe('2026-11-20T16:08:00+08:00')
    expect(exchangeInstant('sh', '2026-11-20', '10:30')).toBe('2026-11-20T10:30:00+08:00')
  })
})

describe('as_of values', () => {
  it('a quote with a time is an instant on its exchange clock; without one, its session date', () => {
    expect(quoteAsOf('sz', '2026-11-20', '10:30:03')).toBe('2026-11-20T10:30:03+08:00')
    expect(quoteAsOf('us', '2026-11-20', '15:59:58')).toBe('2026-11-20T15:59:58-05:00')
    expect(quoteAsOf('us', '2026-11-20', null)).toBe('2026-11-20')
  })

  it("a day bar's date stays a date; a minute bar's end becomes an instant", () => {
    expect(barAsOf('sh', '2026-11-20')).toBe('2026-11-20')
    expect(barAsOf('sh', '2026-11-20 10:35')).toBe('2026-11-20T10:35:00+08:00')
    expect(barAsOf('us', '2026-07-01 10:35')).toBe('2026-07-01T10:35:00-04:00')
  })

  it('orders by the instant named, not by the text', () => {
    // 16:00 New York (21:00 UTC) is after 23:00 Beijing (15:00 UTC) the same day.
    const values = ['2026-11-20T23:00:00+08:00', '2026-11-20T16:00:00-05:00', '2026-11-20T10:30:03+08:00']
    expect(newestAsOf(values)).toBe('2026-11-20T16:00:00-05:00')
    expect(oldestAsOf(values)).toBe('2026-11-20T10:30:03+08:00')
    expect(newestAsOf([])).toBeUndefined()
  })
})
