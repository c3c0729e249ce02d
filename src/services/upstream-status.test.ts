import { describe, expect, it } from 'vitest'
import { banned, httpError } from '../channels/errors'
import { HostHealth } from '../channels/host-health'
import { Failover } from '../channels/failover'
import type { ChannelName } from '../channels/types'
import { upstreamStatus } from './upstream-status'

const T0 = Date.parse('2026-11-20T02:30:00Z') // 10:30 in Beijing

function setup() {
  let t = T0
  const now = () => t
  const failover = new Failover({ breaker: { threshold: 2, cooldownMs: 30_000, ban: { baseMs: 30_000, capMs: 1_800_000, jitter: 0 } }, stickyMs: 300_000, now })
  const health = new HostHealth(now)
  const status = () =>
    upstreamStatus({ breaker: (c) => failover.breaker(c), routes: () => failover.routes(), serving: (k, chain) => failover.serving(k, chain), counts: (c) => health.counts(c), budget: () => null, now: now() })
  return { failover, health, status, at: (ms: number) => (t = T0 + ms) }
}

const fail = (kind: 'banned' | 'http') => async (c: ChannelName): Promise<string> => {
  if (c === 'eastmoney') throw kind === 'banned' ? banned(c, 'HTTP 403', 403) : httpError(c, 502)
  return c
}

describe('upstreamStatus', () => {
  it('lists every host serving, and the quote and kline families, before any call', () => {
    const { status } = setup()
    const s = status()
    expect(s.as_of).toBe('2026-11-20T10:30:00+08:00')
    expect(s.hosts.map((h) => [h.channel, h.state])).toEqual([['eastmoney', 'serving'], ['tencent', 'serving'], ['sina', 'serving'], ['ths', 'serving'], ['hkex', 'serving']])
    expect(s.hosts[0]).toEqual({ channel: 'eastmoney', state: 'serving', backoff_until: null, backoff_step: null, last_success: null, requests_this_minute: 0, budget_per_minute: null, budget_used_this_minute: null, error_rate: { minutes: 5, requests: 0, failures: 0 } })
    expect(s.families.map((f) => f.key)).toEqual(['quote:cn', 'quote:hk', 'quote:us', 'kline:cn:day', 'kline:cn:minute', 'kline:hk:day', 'kline:hk:minute', 'kline:us:day', 'kline:us:minute'])
    expect(s.families[0]).toEqual({ key: 'quote:cn', chain: ['tencent', 'eastmoney', 'sina'], channel: 'tencent' })
    expect(s.families[3]).toEqual({ key: 'kline:cn:day', chain: ['eastmoney', 'tencent', 'sina'], channel: 'eastmoney' })
  })

  it('shows a ban backing off until its step ends, then probing, and the families served around it', async () => {
    const { failover, health, status, at } = setup()
    health.request('eastmoney')
    health.failure('eastmoney')
    await failover.run('kline:cn:day', ['eastmoney', 'tencent', 'sina'], fail('banned'))
    await failover.run('fund:flow', ['eastmoney'], fail('banned'))
    let s = status()
    expect(s.hosts[0]).toMatchObject({ channel: 'eastmoney', state: 'backing_off', backoff_until: '2026-11-20T10:30:30+08:00', backoff_step: 1, requests_this_minute: 1, error_rate: { requests: 1, failures: 1 } })
    expect(s.families.find((f) => f.key === 'kline:cn:day')!.channel).toBe('tencent')
    expect(s.families.find((f) => f.key === 'kline:hk:day')).toEqual({ key: 'kline:hk:day', chain: ['eastmoney', 'tencent'], channel: 'tencent' })
    expect(s.families.at(-1)).toEqual({ key: 'fund:flow', chain: ['eastmoney'], channel: null })
    at(30_000)
    s = status()
    expect(s.hosts[0]).toMatchObject({ state: 'probing', backoff_until: null, backoff_step: 1 })
  })

  it('shows an ordinary open circuit backing off for its cooldown, without a step', async () => {
    const { failover, status } = setup()
    for (let i = 0; i < 2; i++) await failover.run(`quote:hk${i}`, ['eastmoney', 'tencent'], fail('http'))
    expect(status().hosts[0]).toMatchObject({ state: 'backing_off', backoff_until: '2026-11-20T10:30:30+08:00', backoff_step: null })
  })
})
