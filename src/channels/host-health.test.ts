import { describe, expect, it } from 'vitest'
import { HostHealth } from './host-health'

describe('HostHealth', () => {
  it('counts requests and failures per host in one-minute buckets over the last five minutes', () => {
    let t = Date.parse('2026-11-20T02:30:10Z')
    const h = new HostHealth(() => t)
    h.request('eastmoney')
    h.request('eastmoney')
    h.failure('eastmoney')
    h.request('tencent')
    h.success('tencent')
    expect(h.counts('eastmoney')).toEqual({ requests: 2, failures: 1, requestsThisMinute: 2, lastSuccess: null })
    expect(h.counts('tencent')).toEqual({ requests: 1, failures: 0, requestsThisMinute: 1, lastSuccess: t })
    t += 60_000
    h.request('eastmoney')
    expect(h.counts('eastmoney')).toEqual({ requests: 3, failures: 1, requestsThisMinute: 1, lastSuccess: null })
    // Four minutes on, the first minute is still in the window; five minutes on, it is not.
    t += 3 * 60_000
    expect(h.counts('eastmoney')).toMatchObject({ requests: 3, failures: 1, requestsThisMinute: 0 })
    t += 60_000
    expect(h.counts('eastmoney')).toMatchObject({ requests: 1, failures: 0 })
    // A bucket reused for a later minute starts from zero.
    h.request('eastmoney')
    expect(h.counts('eastmoney')).toMatchObject({ requests: 2, requestsThisMinute: 1 })
    t += 10 * 60_000
    expect(h.counts('eastmoney')).toMatchObject({ requests: 0, failures: 0, requestsThisMinute: 0 })
  })

  it('ignores names that are not hosts, leaves out buckets ahead of a clock moved back, and forgets all on clear', () => {
    let t = 10 * 60_000
    const h = new HostHealth(() => t)
    h.request('szse')
    h.request('sina')
    t -= 60_000
    expect(h.counts('sina').requests).toBe(0)
    t += 60_000
    h.success('sina')
    h.clear()
    expect(h.counts('sina')).toEqual({ requests: 0, failures: 0, requestsThisMinute: 0, lastSuccess: null })
  })
})
