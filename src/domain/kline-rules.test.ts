import { describe, expect, it } from 'vitest'
import { planKline as planOrIssues, type KlineQuery } from './kline-rules'

function issuesOf(q: Partial<KlineQuery>) {
  const r = planOrIssues({ code: 'sh600519', period: 'day', ...q })
  return r.ok ? [] : r.issues
}

/** The plan of a query the test knows is valid. */
function planKline(...args: Parameters<typeof planOrIssues>) {
  const r = planOrIssues(...args)
  if (!r.ok) throw new Error(`unexpected issues: ${JSON.stringify(r.issues)}`)
  return r.plan
}

describe('planKline', () => {
  it('defaults count to 30, or 1212 with a date range', () => {
    expect(planKline({ code: 'sh600519', period: 'day' }).count).toBe(30)
    expect(planKline({ code: 'sh600519', period: 'day', start: '2025-01-01', end: '2025-02-01' }).count).toBe(1212)
  })

  it('takes several comma-separated symbols', () => {
    expect(planKline({ code: 'sh600519,sz000001,hk00700', period: 'week' }).instruments.map((i) => i.code)).toEqual([
      'sh600519', 'sz000001', 'hk00700',
    ])
  })

  it('names each bad code', () => {
    const issues = issuesOf({ code: 'sh600519,xx1,sh60' })
    expect(issues).toHaveLength(2)
    expect(issues.every((i) => i.loc.join('.') === 'query.code')).toBe(true)
    expect(issues.map((i) => i.input)).toEqual(['xx1', 'sh60'])
  })

  it('requires start and end together (each missing one named)', () => {
    expect(issuesOf({ start: '2025-01-01' })).toMatchObject([{ loc: ['query', 'end'], type: 'missing' }])
    expect(issuesOf({ end: '2025-01-01' })).toMatchObject([{ loc: ['query', 'start'], type: 'missing' }])
  })

  it('refuses start after end', () => {
    expect(issuesOf({ start: '2025-02-01', end: '2025-01-01' })).toMatchObject([{ loc: ['query', 'start'] }])
  })

  it.each(['week', 'month', 'season', 'year'] as const)('refuses a date range for %s (rule 1)', (period) => {
    expect(issuesOf({ period, start: '2025-01-01', end: '2025-02-01' })).toMatchObject([{ loc: ['query', 'start'] }])
  })

  it('accepts a date range for minute periods', () => {
    expect(issuesOf({ period: 'm5', start: '2025-01-01', end: '2025-01-02' })).toEqual([])
  })

  it.each(['hk00700', 'usAAPL', 'us.DJI', 'fuRB2501', 'fxUSDCNH'])('refuses a date range for %s', (code) => {
    const issues = issuesOf({ code, start: '2025-01-01', end: '2025-02-01' })
    expect(issues.some((i) => i.loc[1] === 'start' && String(i.msg).includes(code))).toBe(true)
  })

  it.each([
    ['bj830799', 'm5'],
    ['fuRB2501', 'm1'],
    ['fxUSDCNH', 'm60'],
    ['us.DJI', 'm15'],
  ])('refuses minute bars for %s (rule 4)', (code, period) => {
    expect(issuesOf({ code, period: period as KlineQuery['period'] })).toMatchObject([{ loc: ['query', 'period'] }])
  })

  it.each(['sh600519', 'sh000001', 'pt0477', 'sh510300', 'sh113050', 'hk00700', 'usAAPL'])('allows minute bars for %s', (code) => {
    expect(issuesOf({ code, period: 'm30' })).toEqual([])
  })

  it.each(['season', 'year'] as const)('refuses %s for futures and forex (rule 5)', (period) => {
    expect(issuesOf({ code: 'fuRB2501', period })).toMatchObject([{ loc: ['query', 'period'] }])
    expect(issuesOf({ code: 'fxEURUSD', period })).toMatchObject([{ loc: ['query', 'period'] }])
  })

  it.each(['week', 'month', 'm5'] as const)('refuses %s for US indexes (rule 6)', (period) => {
    expect(issuesOf({ code: 'us.SPX', period })[0]).toMatchObject({ loc: ['query', 'period'] })
  })

  it('caps symbols × count at 60,000', () => {
    const codes = Array.from({ length: 50 }, (_, i) => `sz${String(i + 1).padStart(6, '0')}`).join(',')
    expect(issuesOf({ code: codes, count: 1200 })).toEqual([])
    expect(issuesOf({ code: codes + ',sz000051', count: 1200 })).toMatchObject([{ loc: ['query', 'count'] }])
    // With a range the default count is 1212, so 50 symbols overflow and the message says why.
    const r = issuesOf({ code: codes, start: '2025-01-01', end: '2025-02-01' })
    expect(r[0].msg).toContain('count defaulted')
  })
})
