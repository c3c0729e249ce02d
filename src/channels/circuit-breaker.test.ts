import { describe, expect, it } from 'vitest'
import { CircuitBreaker } from './circuit-breaker'

describe('CircuitBreaker', () => {
  it('lets one half-open trial through; a trial that never reports back is given up after a cooldown', () => {
    let t = 0
    const b = new CircuitBreaker({ threshold: 1, cooldownMs: 1_000 }, () => t)
    b.failure()
    expect(b.allow()).toBe(false)
    t = 1_000
    expect(b.allow()).toBe(true) // the trial, whose request is then cut off: no success, failure or neutral
    expect(b.allow()).toBe(false) // one trial at a time…
    t = 1_999
    expect(b.allow()).toBe(false)
    t = 2_000
    expect(b.allow()).toBe(true) // …but not for ever: the channel is tried again
    b.success()
    expect(b.state()).toBe('closed')
  })
})

describe('CircuitBreaker after a ban', () => {
  const BACKOFF = { baseMs: 30_000, capMs: 30 * 60_000, jitter: 0.2 }
  function setup(random = () => 0.5) {
    let t = 0
    const b = new CircuitBreaker({ threshold: 3, cooldownMs: 30_000, ban: BACKOFF }, () => t, random)
    return { b, at: (ms: number) => (t = ms), now: () => t }
  }

  it('opens at once (no threshold) and lets exactly one probe through when the step ends', () => {
    const { b, at } = setup()
    b.ban()
    expect(b.state()).toBe('open')
    expect(b.banned()).toEqual({ step: 1, until: 30_000 })
    at(29_999)
    expect(b.allow()).toBe(false)
    expect(b.probe()).toBe(false) // the failover's once-a-second shortcut does not apply
    at(30_000)
    expect(b.state()).toBe('half-open')
    expect(b.allow()).toBe(true)
    expect(b.allow()).toBe(false) // one probe at a time
    expect(b.probe()).toBe(false)
  })

  it('doubles the step per failed probe up to the cap, whatever way the probe failed', () => {
    const { b, at, now } = setup()
    b.ban()
    const steps: number[] = []
    for (let i = 0; i < 9; i++) {
      const { until } = b.banned()!
      steps.push(until - now())
      at(until)
      expect(b.allow()).toBe(true)
      if (i % 2) b.ban()
      else b.failure() // a timeout or a 502 of the probe counts the same
    }
    expect(steps).toEqual([30_000, 60_000, 120_000, 240_000, 480_000, 960_000, 1_800_000, 1_800_000, 1_800_000])
    expect(b.banned()!.step).toBe(10)
  })

  it('stretches each step by at most ±20 %', () => {
    for (const [r, length] of [[0, 24_000], [1, 36_000], [0.25, 27_000]] as const) {
      const { b } = setup(() => r)
      b.ban()
      expect(b.banned()!.until).toBe(length)
    }
  })

  it('closes and forgets the steps on a successful probe (or one that answers "nothing")', () => {
    const { b, at } = setup()
    b.ban()
    at(30_000)
    b.allow()
    b.ban()
    expect(b.banned()!.step).toBe(2)
    at(90_000)
    expect(b.allow()).toBe(true)
    b.success()
    expect(b.state()).toBe('closed')
    expect(b.banned()).toBeNull()
    b.ban()
    expect(b.banned()).toEqual({ step: 1, until: 120_000 })
    at(120_000)
    b.allow()
    b.neutral()
    expect(b.state()).toBe('closed')
  })

  it('ignores the outcome of calls sent before the ban while its step runs', () => {
    const { b, at } = setup()
    b.ban()
    at(1_000)
    b.ban() // a second 403 of a call already in flight
    b.failure()
    b.success()
    expect(b.banned()).toEqual({ step: 1, until: 30_000 })
  })

  it('counts a probe that never reports back within a base step as failed', () => {
    const { b, at } = setup()
    b.ban()
    at(30_000)
    expect(b.allow()).toBe(true) // cut off by the request deadline: no outcome
    at(59_999)
    expect(b.allow()).toBe(false)
    at(60_000)
    expect(b.allow()).toBe(false) // taken as failed: the next step starts now
    expect(b.banned()).toEqual({ step: 2, until: 120_000 })
  })
})
