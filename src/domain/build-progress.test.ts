import { describe, expect, it } from 'vitest'
import { buildingMessage, type BuildProgress } from './build-progress'

const PROGRESS: BuildProgress = {
  phase: 'histories',
  percent: 20,
  stocks_done: 2,
  stocks_total: 5,
  months_done: 0,
  months_total: 2,
  from: '2026-10-21',
  to: '2026-11-20',
  started_at: '2026-11-23T19:00:00+08:00',
}

describe('buildingMessage', () => {
  it('says what is being built and how far, by phase', () => {
    expect(buildingMessage('the daily history of sh600519', PROGRESS)).toBe(
      'the daily history of sh600519 is being built (20% done: histories 2 of 5 stocks; started 2026-11-23T19:00:00+08:00); try again in a few minutes'
    )
    expect(buildingMessage('the market day 2026-11-20', { ...PROGRESS, phase: 'day_blobs', percent: 80, months_done: 1 })).toMatch(/\(80% done: day blobs, 1 of 2 months;/)
    expect(buildingMessage('x', { ...PROGRESS, phase: 'day_tables' })).toMatch(/technicals and factor tables of the last days/)
  })
})
