import { describe, expect, it } from 'vitest'
import { calendarFor, easternOffsetHours, exchangeTime, hhmm, minuteEnds, phase, sessionFor } from './sessions'

describe('sessions', () => {
  it('A-shares have 240 one-minute bars ending 09:31 … 11:30, 13:01 … 15:00', () => {
    const ends = Array.from(minuteEnds(sessionFor('stock')), hhmm)
    expect(ends).toHaveLength(240)
    expect(ends[0]).toBe('09:31')
    expect(ends[119]).toBe('11:30')
    expect(ends[120]).toBe('13:01')
    expect(ends[239]).toBe('15:00')
  })

  it('HK has 330 bars and US 390', () => {
    expect(sessionFor('hk').minutes).toBe(330)
    expect(minuteEnds(sessionFor('hk'))[149]).toBe(720)
    expect(sessionFor('us').minutes).toBe(390)
    expect(sessionFor('us-index').clock).toBe('eastern')
    expect(calendarFor('future')).toBe('cn')
    expect(calendarFor('forex')).toBe('fx')
  })

  it('knows US daylight saving time', () => {
    expect(easternOffsetHours(Date.UTC(2025, 6, 1))).toBe(-4)
    expect(easternOffsetHours(Date.UTC(2025, 0, 15))).toBe(-5)
    // 2025-03-09 02:00 EST = 07:00 UTC switches to EDT; 2025-11-02 02:00 EDT = 06:00 UTC back.
    expect(easternOffsetHours(Date.UTC(2025, 2, 9, 6, 59))).toBe(-5)
    expect(easternOffsetHours(Date.UTC(2025, 2, 9, 7, 0))).toBe(-4)
    expect(easternOffsetHours(Date.UTC(2025, 10, 2, 5, 59))).toBe(-4)
    expect(easternOffsetHours(Date.UTC(2025, 10, 2, 6, 0))).toBe(-5)
  })

  it('gives exchange wall time', () => {
    const ms = Date.UTC(2025, 0, 2, 1, 45, 30) // 09:45:30 Beijing
    expect(exchangeTime('beijing', ms)).toMatchObject({ date: '2025-01-02', minute: 585, time: '09:45:30' })
    expect(exchangeTime('eastern', ms)).toMatchObject({ date: '2025-01-01', time: '20:45:30' })
  })

  it('places a day before, inside or after its session', () => {
    const s = sessionFor('stock')
    const t = (h: number, m: number) => exchangeTime('beijing', Date.UTC(2025, 0, 2, h - 8, m))
    const day = t(10, 0).day
    expect(phase(s, day, t(9, 29))).toBe('before')
    expect(phase(s, day, t(9, 30))).toBe('open')
    expect(phase(s, day, t(12, 0))).toBe('open')
    expect(phase(s, day, t(15, 0))).toBe('closed')
    expect(phase(s, day - 1, t(9, 0))).toBe('closed')
  })
})
