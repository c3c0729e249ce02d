import { describe, expect, it } from 'vitest'
import { barsToFetch, clip } from './span'

// Friday 2025-01-10; 2025-01-01 was a holiday.
const TODAY = '2025-01-10'

describe('barsToFetch', () => {
  it('asks for count when the span reaches today', () => {
    expect(barsToFetch({ count: 30 }, 1, TODAY)).toBe(30)
    expect(barsToFetch({ count: 30, end: TODAY }, 1, TODAY)).toBe(30)
    expect(barsToFetch({ count: 30, end: '2025-02-01' }, 1, TODAY)).toBe(30)
  })

  it('adds the bars newer than end', () => {
    // 7, 8, 9, 10 January come back too.
    expect(barsToFetch({ count: 30, end: '2025-01-06' }, 1, TODAY)).toBe(34)
    expect(barsToFetch({ count: 30, end: '2025-01-06' }, 48, TODAY)).toBe(30 + 4 * 48)
  })

  it('asks for no more than the range holds', () => {
    // 2, 3 and 6 January (the 1st is a holiday), plus the four newer days.
    expect(barsToFetch({ count: 1212, start: '2024-12-31', end: '2025-01-06' }, 1, TODAY)).toBe(4 + 4)
    expect(barsToFetch({ count: 10, start: '2025-01-06', end: '2025-01-06' }, 48, TODAY)).toBe(10 + 4 * 48)
  })

  it('caps, and never asks for nothing', () => {
    expect(barsToFetch({ count: 1212 }, 1, TODAY, 1023)).toBe(1023)
    expect(barsToFetch({ count: 30, end: '2017-01-06' }, 1, TODAY, 1023)).toBe(1023)
    expect(barsToFetch({ count: 30, start: '2025-01-11' }, 1, TODAY)).toBe(1)
  })
})

describe('clip', () => {
  const bars = ['2025-01-02 15:00', '2025-01-03 09:35', '2025-01-03 15:00', '2025-01-06 09:35'].map((date) => ({ date }))

  it('keeps the date part of minute bars within [start, end], then the last count', () => {
    expect(clip(bars, { count: 5, start: '2025-01-03', end: '2025-01-03' }).map((b) => b.date)).toEqual(['2025-01-03 09:35', '2025-01-03 15:00'])
    expect(clip(bars, { count: 2 }).map((b) => b.date)).toEqual(['2025-01-03 15:00', '2025-01-06 09:35'])
    expect(clip(bars, { count: 2, end: '2025-01-02' }).map((b) => b.date)).toEqual(['2025-01-02 15:00'])
  })
})
