import { describe, expect, it } from 'vitest'
import { streamPhase } from './stream-phase'

const at = (s: string) => Date.parse(s)
const iso = (ms: number) => new Date(ms).toISOString()

describe('streamPhase', () => {
  it.each([
    ['2026-11-20T09:00:00+08:00', 'closed', '2026-11-20T01:15:00.000Z'],
    ['2026-11-20T09:15:00+08:00', 'auction', '2026-11-20T01:30:00.000Z'],
    ['2026-11-20T09:29:59+08:00', 'auction', '2026-11-20T01:30:00.000Z'],
    ['2026-11-20T10:30:00+08:00', 'session', '2026-11-20T03:30:00.000Z'],
    ['2026-11-20T12:00:00+08:00', 'lunch', '2026-11-20T05:00:00.000Z'],
    ['2026-11-20T13:00:00+08:00', 'session', '2026-11-20T07:00:00.000Z'],
    // Friday after the close, and Saturday: the next change is Monday's auction.
    ['2026-11-20T15:00:00+08:00', 'closed', '2026-11-23T01:15:00.000Z'],
    ['2026-11-21T10:30:00+08:00', 'closed', '2026-11-23T01:15:00.000Z'],
  ])('%s is %s until %s', (now, phase, next) => {
    const p = streamPhase(at(now))
    expect(p.phase).toBe(phase)
    expect(iso(p.nextChange)).toBe(next)
  })
})
