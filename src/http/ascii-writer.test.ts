import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { AsciiWriter } from './ascii-writer'

const written = (write: (w: AsciiWriter) => unknown, expected?: number) => {
  const w = new AsciiWriter(expected)
  write(w)
  return new TextDecoder().decode(w.bytes)
}

describe('AsciiWriter', () => {
  it('writes integers as String(n) does, negative, zero, -0 and past 2^53 included', () => {
    fc.assert(fc.property(fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }), (n) => written((w) => w.int(n)) === String(n)))
    for (const n of [0, -0, 9, 10, 99, 100, -1, 2 ** 53, 1e21, 1.5, NaN, Infinity]) expect(written((w) => w.int(n))).toBe(String(n))
  })

  it('writes integer cents as (m / 100).toFixed(2) does, past the exact range too', () => {
    fc.assert(fc.property(fc.integer({ min: -(2 ** 50), max: 2 ** 50 }), (m) => written((w) => w.cents(m)) === (m / 100).toFixed(2)))
    for (const m of [0, -0, 5, -5, 99, 100, -100, 123456, 2 ** 50 - 1, -8356133601132396, NaN, 2 ** 60]) expect(written((w) => w.cents(m))).toBe((m / 100).toFixed(2))
  })

  it('pads digits to a width, and grows past the size it was given', () => {
    expect(written((w) => w.digits(7, 2).ascii('-').digits(2026, 4).ascii('-').digits(5, 1))).toBe('07-2026-5')
    const long = 'x'.repeat(100)
    expect(written((w) => w.ascii(long).int(123).ascii(long), 16)).toBe(`${long}123${long}`)
  })
})
