import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { Capture, UpstreamEndpoint } from '../../data/upstreams'
import { askEmulator, departures, emulatorInstant, heldCaptures, hourOf, probes } from './held-captures'

/**
 * The emulator held to the real wire: for every catalogued capture (src/data/upstreams), the
 * emulator is asked the same request at the same kind of hour, and its answer's structure (keys,
 * value classes, row widths, decimals, time stamp forms, charset) must be one the real host sends.
 */
const held = heldCaptures()

describe('the emulator speaks what the real hosts send', () => {
  it("has the catalogue's captures to compare against", () => expect(held.length).toBeGreaterThan(20))

  it.each(held.map((h) => [`${h.endpoint.id} ${h.capture.file.split('/').pop()}`, h] as const))('%s', async (_name, h) => {
    expect(await departures(h, readFileSync(h.capture.file), await askEmulator(h))).toEqual([])
  })
})

describe('the hour class of an instant (what npm run smoke -- --record notes of each answer)', () => {
  it.each([
    ['2026-11-20T02:00:00+08:00', 'night'],
    ['2026-11-20T09:05:00+08:00', 'pre-open'],
    ['2026-11-20T09:20:00+08:00', 'auction'],
    ['2026-11-20T09:27:00+08:00', 'auction'],
    ['2026-11-20T10:30:00+08:00', 'session'],
    ['2026-11-20T12:00:00+08:00', 'lunch'],
    ['2026-11-20T15:10:00+08:00', 'post-close'],
    ['2026-11-20T16:00:00+08:00', 'after-close'],
    ['2026-11-20T21:00:00+08:00', 'night'],
    ['2026-11-21T11:00:00+08:00', 'weekend'],
    ['2026-10-02T11:00:00+08:00', 'holiday'],
  ])('%s is %s', (instant, hour) => expect(hourOf(Date.parse(instant))).toBe(hour))

  it("is the capture's own at the instant the emulator answers it", () => {
    for (const h of held) if (h.capture.hour !== 'unknown') expect(hourOf(emulatorInstant(h)), h.capture.file).toBe(h.capture.hour)
  })
})

describe('the probes of the endpoints without a held capture', () => {
  it('are asked for an endpoint whose captures are not held (old, an excerpt, no request), not for one with a held capture', () => {
    const capture = (taken: string, more: Partial<Capture> = {}): Capture => ({ file: 'f.json', request: 'https://h.example/p?old=1', taken, hour: 'session', source: 'test', ...more })
    const endpoint = (id: string, captures: Capture[]): UpstreamEndpoint => ({ id, url: 'https://h.example/p', report: null, callers: [], captures, searched: null, probe: `https://h.example/p?probe=${id}` })
    const asked = probes([
      endpoint('old', [capture('2020-01-02')]),
      endpoint('excerpt', [capture('2026-01-02', { excerpt: 'rows trimmed' })]),
      endpoint('no-request', [capture('2026-01-02', { request: null })]),
      endpoint('held', [capture('2020-01-02'), capture('2026-01-02')]),
    ])
    expect(asked.map((p) => [p.endpoint.id, p.url?.href])).toEqual([
      ['old', 'https://h.example/p?probe=old'],
      ['excerpt', 'https://h.example/p?probe=excerpt'],
      ['no-request', 'https://h.example/p?probe=no-request'],
    ])
  })

  it.each(probes(undefined, true).filter((p) => p.url).map((p) => [p.endpoint.id, p] as const))('the emulator answers %s', async (_id, p) => {
    expect((await askEmulator(p)).status).toBe(200)
  })
})
