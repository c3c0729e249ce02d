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
