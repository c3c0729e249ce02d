import { describe, expect, it } from 'vitest'
import { banned, empty, httpError, timeout } from './errors'
import { Failover } from './failover'
import type { ChannelName } from './types'

function setup() {
  let t = 0
  const failover = new Failover({ breaker: { threshold: 2, cooldownMs: 1000 }, stickyMs: 5000, now: () => t })
  return { failover, advance: (ms: number) => (t += ms) }
}

const CHAIN: ChannelName[] = ['eastmoney', 'tencent', 'sina']

describe('Failover', () => {
  it('answers from the first channel that works and names it', async () => {
    const { failover } = setup()
    const r = await failover.run('k', CHAIN, async (c) => {
      if (c === 'eastmoney') throw timeout(c, 10)
      return c
    })
    expect(r).toMatchObject({ ok: true, value: 'tencent', channel: 'tencent' })
    if (r.ok) expect(r.attempts).toEqual([{ channel: 'eastmoney', kind: 'timeout', message: expect.stringContaining('timeout') }])
  })

  it('is ok:false with every attempt listed when all fail', async () => {
    const { failover } = setup()
    const r = await failover.run('k', CHAIN, async (c) => {
      throw httpError(c, 502)
    })
    expect(r.ok).toBe(false)
    expect(r.attempts.map((a) => a.channel)).toEqual(CHAIN)
  })

  it('treats a thrown non-channel error as malformed, not a crash', async () => {
    const { failover } = setup()
    const r = await failover.run('k', ['eastmoney'], async () => {
      throw new TypeError('x is undefined')
    })
    expect(r).toMatchObject({ ok: false, attempts: [{ kind: 'malformed' }] })
  })

  it('opens the circuit after consecutive failures, skips the channel, then lets one trial through', async () => {
    const { failover, advance } = setup()
    const calls: string[] = []
    const failEastmoney = async (c: ChannelName) => {
      calls.push(c)
      if (c === 'eastmoney') throw httpError(c, 502)
      return c
    }
    await failover.run('a', CHAIN, failEastmoney)
    await failover.run('b', CHAIN, failEastmoney)
    expect(failover.breaker('eastmoney').state()).toBe('open')
    calls.length = 0
    const r = await failover.run('c', CHAIN, failEastmoney)
    expect(calls).toEqual(['tencent'])
    expect(r.attempts[0]).toMatchObject({ channel: 'eastmoney', kind: 'skipped' })
    advance(1000)
    expect(failover.breaker('eastmoney').state()).toBe('half-open')
    calls.length = 0
    await failover.run('d', CHAIN, async (c) => (calls.push(c), c))
    expect(calls).toEqual(['eastmoney'])
    expect(failover.breaker('eastmoney').state()).toBe('closed')
  })

  it('does not trip the breaker on empty answers (an unknown symbol is not an outage)', async () => {
    const { failover } = setup()
    for (let i = 0; i < 5; i++) {
      await failover.run('k' + i, ['eastmoney'], async (c) => {
        throw empty(c)
      })
    }
    expect(failover.breaker('eastmoney').state()).toBe('closed')
  })

  it('remembers the last good channel for a while, then goes back to the table order', async () => {
    const { failover, advance } = setup()
    await failover.run('k', CHAIN, async (c) => {
      if (c === 'eastmoney') throw timeout(c, 10)
      return c
    })
    const calls: string[] = []
    await failover.run('k', CHAIN, async (c) => (calls.push(c), c))
    expect(calls).toEqual(['tencent'])
    advance(5001)
    calls.length = 0
    await failover.run('k', CHAIN, async (c) => (calls.push(c), c))
    expect(calls).toEqual(['eastmoney'])
  })

  it('still asks when every circuit is open rather than refusing outright', async () => {
    const { failover } = setup()
    for (let i = 0; i < 2; i++) await failover.run('k', ['sina'], async (c) => Promise.reject(httpError(c, 500)))
    expect(failover.anyAvailable(['sina'])).toBe(false)
    const r = await failover.run('k', ['sina'], async (c) => c)
    expect(r).toMatchObject({ ok: true, channel: 'sina' })
  })

  it('probes the circuit that opened first when the channels left have nothing, at most once a second', async () => {
    const { failover, advance } = setup()
    const down = new Set<ChannelName>(['eastmoney', 'tencent'])
    const calls: string[] = []
    const call = async (c: ChannelName) => {
      calls.push(c)
      if (down.has(c)) throw httpError(c, 502)
      if (c === 'sina') throw empty(c, 'no line for this code')
      return c
    }
    // Eastmoney opens first, then Tencent.
    for (let i = 0; i < 2; i++) await failover.run('q' + i, ['eastmoney'], call)
    advance(100)
    for (let i = 0; i < 2; i++) await failover.run('q' + i, ['tencent'], call)
    expect([failover.breaker('eastmoney').state(), failover.breaker('tencent').state()]).toEqual(['open', 'open'])
    down.clear() // both come back
    calls.length = 0
    const r = await failover.run('quote', CHAIN, call)
    expect(calls).toEqual(['sina', 'eastmoney'])
    expect(r).toMatchObject({ ok: true, channel: 'eastmoney' })
    expect(failover.breaker('eastmoney').state()).toBe('closed')

    // A channel still down is probed at most once a second, not once per call.
    down.add('tencent')
    down.add('eastmoney')
    advance(1_000)
    for (let i = 0; i < 2; i++) await failover.run('x' + i, ['eastmoney'], call)
    calls.length = 0
    await failover.run('quote', ['eastmoney', 'sina'], call)
    await failover.run('quote', ['eastmoney', 'sina'], call)
    expect(calls).toEqual(['sina', 'eastmoney', 'sina'])
    advance(500)
    calls.length = 0
    await failover.run('quote', ['eastmoney', 'sina'], call)
    expect(calls).toEqual(['sina'])
  })
})

describe('Failover with a banned channel', () => {
  function banSetup() {
    let t = 0
    const failover = new Failover({ breaker: { threshold: 3, cooldownMs: 1000, ban: { baseMs: 30_000, capMs: 120_000, jitter: 0 } }, stickyMs: 5000, now: () => t })
    return { failover, at: (ms: number) => (t = ms) }
  }

  it('fails over at once, asks the banned host once per backoff step and never through the probe shortcut', async () => {
    const { failover, at } = banSetup()
    let bannedHost = true
    const calls: string[] = []
    const call = async (c: ChannelName) => {
      calls.push(c)
      if (c === 'eastmoney' && bannedHost) throw banned(c, 'HTTP 403', 403)
      if (c === 'sina') throw empty(c)
      return c
    }
    const first = await failover.run('kline:cn:day', ['eastmoney', 'tencent'], call)
    expect(first).toMatchObject({ ok: true, channel: 'tencent', attempts: [{ channel: 'eastmoney', kind: 'banned' }] })
    expect(failover.backoff('eastmoney')).toEqual({ step: 1, until: 30_000 })
    // Eastmoney alone, or with a channel that has nothing: no call reaches it within the step.
    calls.length = 0
    for (let s = 1; s < 30; s++) {
      at(s * 1000)
      const alone = await failover.run('kline:sector:day', ['eastmoney'], call)
      expect(alone).toMatchObject({ ok: false, attempts: [{ channel: 'eastmoney', kind: 'banned', message: expect.stringContaining('backing off') }] })
      await failover.run('quote:x', ['eastmoney', 'sina'], call)
    }
    expect(calls.filter((c) => c === 'eastmoney')).toEqual([])
    // The step ends: one probe (still banned), then the doubled step.
    at(30_000)
    calls.length = 0
    let release = () => {}
    const held = new Promise<void>((r) => (release = r))
    const probe = failover.run('a', ['eastmoney'], async (c) => (await held, call(c)))
    expect(await failover.run('b', ['eastmoney'], call)).toMatchObject({ ok: false, attempts: [{ kind: 'banned', message: 'eastmoney: banned: backing off, its probe is out' }] })
    release()
    await probe
    expect(calls).toEqual(['eastmoney'])
    expect(failover.backoff('eastmoney')).toEqual({ step: 2, until: 90_000 })
    // The ban is lifted; the next probe, at the end of the step, closes the breaker.
    bannedHost = false
    at(89_999)
    expect((await failover.run('a', ['eastmoney'], call)).ok).toBe(false)
    at(90_000)
    expect(await failover.run('a', ['eastmoney'], call)).toMatchObject({ ok: true, channel: 'eastmoney' })
    expect(failover.backoff('eastmoney')).toBeNull()
    expect(failover.serving('kline:cn:day', ['eastmoney', 'tencent'])).toBe('eastmoney') // the failover no longer sticks (5 s)
    expect(failover.routes().map((r) => r.key)).toEqual(['kline:cn:day', 'kline:sector:day', 'quote:x', 'a', 'b'])
  })
})
