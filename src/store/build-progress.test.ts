import { describe, expect, it } from 'vitest'
import type { BackfillState } from './backfill-record'
import { building } from './build-progress'

const STATE: BackfillState = {
  run: 'r',
  from: '2026-10-21',
  to: '2026-11-20',
  through: '2026-11-20',
  days: 23,
  months: ['2026-10', '2026-11'],
  codes: ['bj430017', 'sh600000', 'sh600519', 'sz000001', 'sz300750'],
  chunkSize: 2,
  chunks: 3,
  phase: 'chunks',
  finishedMonths: [],
  startedAt: '2026-11-23T11:00:00.000Z',
  written: { dates: 0, rows: 0, bytes: 0, emptyDates: [] },
}

describe('building', () => {
  it('counts stocks by chunks done, never past the universe, and months as further steps', () => {
    expect(building({ state: STATE, done: 0, pending: [0, 1, 2] }).progress).toMatchObject({ phase: 'histories', percent: 0, stocks_done: 0, stocks_total: 5, months_total: 2 })
    expect(building({ state: STATE, done: 3, pending: [] }).progress).toMatchObject({ stocks_done: 5, percent: 60 })
    const finishing = building({ state: { ...STATE, phase: 'finish', finishedMonths: ['2026-10'] }, done: 3, pending: [] }).progress
    expect(finishing).toMatchObject({ phase: 'day_blobs', months_done: 1, percent: 80 })
  })

  it('counts the days of technicals and factor tables after the months', () => {
    const state = { ...STATE, phase: 'finish' as const, finishedMonths: ['2026-10', '2026-11'], tableDays: ['2026-11-19', '2026-11-20'], finishedTableDays: ['2026-11-19'] }
    expect(building({ state, done: 3, pending: [] }).progress).toMatchObject({ phase: 'day_tables', percent: 85 })
  })

  it('answers the start as an instant with its offset, though the record keeps it in UTC', () => {
    expect(building({ state: STATE, done: 0, pending: [0, 1, 2] }).progress.started_at).toBe('2026-11-23T19:00:00+08:00')
  })

  it('never claims 100% before the build is done', () => {
    const last = building({ state: { ...STATE, phase: 'finish', finishedMonths: ['2026-10', '2026-11'] }, done: 3, pending: [] })
    expect(last.progress.percent).toBe(99)
  })

  it('covers exactly the planned stocks and the days of [from, to]', () => {
    const b = building({ state: STATE, done: 0, pending: [0, 1, 2] })
    expect(b.buildsHistoryOf('sh600519')).toBe(true)
    expect(b.buildsHistoryOf('sh600001')).toBe(false)
    expect([b.buildsDay('2026-10-20'), b.buildsDay('2026-10-21'), b.buildsDay('2026-11-20'), b.buildsDay('2026-11-23')]).toEqual([false, true, true, false])
  })
})
