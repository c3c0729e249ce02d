import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { askEmulator, departures, heldCaptures } from './held-captures'

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
