import { describe, expect, it } from 'vitest'
import { chunkCodes, chunkSizeFor, daysOfMonth, planRange, readStaged, stagedLine } from './backfill-plan'

const at = (iso: string) => Date.parse(iso)
const SAT = at('2026-11-21T10:00:00+08:00')

describe('backfill plan', () => {
  it('defaults to the month up to the latest trading day before today', () => {
    const p = planRange({}, SAT)
    expect(p).toEqual({ range: { from: '2026-10-21', to: '2026-11-20', through: '2026-11-20', days: 23, months: ['2026-10', '2026-11'] } })
  })

  it('counts today as settled only from 15:30 Beijing', () => {
    const before = planRange({ to: '2026-11-20' }, at('2026-11-20T15:29:00+08:00'))
    expect(before).toHaveProperty('issues')
    const after = planRange({ to: '2026-11-20' }, at('2026-11-20T15:30:00+08:00'))
    expect(after).toMatchObject({ range: { to: '2026-11-20', through: '2026-11-20' } })
    expect(planRange({}, at('2026-11-20T16:00:00+08:00'))).toMatchObject({ range: { to: '2026-11-19', through: '2026-11-20' } })
  })

  it.each([
    [{ from: '2026-13-01' }, 'from', /real date/],
    [{ to: 'yesterday' }, 'to', /real date/],
    [{ from: '2016-08-05', to: '2016-09-01' }, 'from', /2016-08-08/],
    [{ from: '2026-11-10', to: '2026-11-01' }, 'from', /after to/],
    [{ to: '2026-11-23' }, 'to', /settled/],
  ])('refuses %j naming %s', (req, field, msg) => {
    const p = planRange(req, SAT)
    expect('issues' in p).toBe(true)
    const issues = (p as { issues: Array<{ loc: unknown[]; msg: string }> }).issues
    expect(issues[0].loc).toEqual(['body', field])
    expect(issues[0].msg).toMatch(msg)
  })

  it('sizes chunks so staged rows stay bounded', () => {
    expect(chunkSizeFor(23)).toBe(100)
    expect(chunkSizeFor(250)).toBe(100)
    expect(chunkSizeFor(1000)).toBe(50)
    expect(chunkSizeFor(2465)).toBe(20)
    expect(chunkCodes(['a', 'b', 'c', 'd', 'e'], 2, 2)).toEqual(['e'])
  })

  it('lists a month’s trading days inside the range', () => {
    expect(daysOfMonth('2026-10', '2026-10-21', '2026-11-20')).toEqual(['2026-10-21', '2026-10-22', '2026-10-23', '2026-10-26', '2026-10-27', '2026-10-28', '2026-10-29', '2026-10-30'])
    expect(daysOfMonth('2026-02', '2026-01-01', '2026-12-31')).toHaveLength(14)
    expect(daysOfMonth('2026-12', '2026-01-01', '2026-12-31').at(-1)).toBe('2026-12-31')
  })

  it('reads staged lines back per date, in order', () => {
    const text = [stagedLine('2026-11-19', '{"code":"a"}'), stagedLine('2026-11-20', '{"code":"a"}'), stagedLine('2026-11-19', '{"code":"b"}')].join('\n')
    const m = new Map<string, string[]>()
    readStaged(text, m)
    readStaged('', m)
    readStaged(stagedLine('2026-11-19', '{"code":"c"}'), m)
    expect(Object.fromEntries(m)).toEqual({ '2026-11-19': ['{"code":"a"}', '{"code":"b"}', '{"code":"c"}'], '2026-11-20': ['{"code":"a"}'] })
  })
})
