import { describe, expect, it } from 'vitest'
import type { Bar, Quote } from '../domain/bar'
import { overlayQuote } from './quote-series'

const bar = (date: string, close: number): Bar => ({ date, open: close, close, high: close, low: close, volume: 1, amount: 1, turnover: 1 })
const quote = (date: string, last: number, halted = false): Quote => ({
  code: 'sh600519', name: '贵州茅台', date, time: '10:00:00', last, open: last, high: last, low: last,
  preClose: last, volume: 5, amount: 5, turnover: 0.1, halted, traded: !halted,
})

describe('overlayQuote', () => {
  it('replaces the partial bar of the same day with the live quote', () => {
    const r = overlayQuote([bar('2026-11-19', 10), bar('2026-11-20', 11)], quote('2026-11-20', 12), 30)
    expect(r.map((b) => [b.date, b.close])).toEqual([['2026-11-19', 10], ['2026-11-20', 12]])
  })

  it('appends today when the bars stop at yesterday, and keeps count', () => {
    const r = overlayQuote([bar('2026-11-19', 10), bar('2026-11-20', 11)], quote('2026-11-23', 12), 2)
    expect(r.map((b) => b.date)).toEqual(['2026-11-20', '2026-11-23'])
  })

  it('leaves the bars alone for a halted instrument', () => {
    const r = overlayQuote([bar('2026-11-20', 11)], quote('2026-11-23', 0, true), 30)
    expect(r).toEqual([bar('2026-11-20', 11)])
  })
})
