import { describe, expect, it } from 'vitest'
import { roundTo } from '../domain/indicators/row'
import { JsonBytes } from './json-bytes'

const text = (w: JsonBytes) => new TextDecoder().decode(w.view(0))
const written = (v: number | null, places: number) => text(new JsonBytes(8).number(v, places))

/** A small deterministic generator (the same cases every run). */
function lcg(seed: number) {
  let s = seed >>> 0
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32)
}

describe('JsonBytes', () => {
  it('writes rounded numbers of every magnitude exactly as JSON.stringify does', () => {
    const random = lcg(7)
    let fast = 0
    for (let k = 0; k < 40_000; k++) {
      const places = k % 5
      const magnitude = 10 ** (Math.floor(random() * 19) - 5) // 1e-5 … 1e13
      const v = roundTo((random() - 0.4) * magnitude, places)
      expect(written(v, places), `${v} at ${places} places`).toBe(JSON.stringify(v))
      if (Math.abs(v) < 1e11) fast++
    }
    expect(fast).toBeGreaterThan(30_000)
  })

  it('writes the edges of the fast path as JSON.stringify does', () => {
    const cases = [1e-4, -1e-4, 0.5, 1, 9.9999, 10, 99_999_999_999.9999, 1e11, 1e11 + 0.5, 123_456_789_012.34, 1e21, 1.23e25, 2 ** 53, 0.1 + 0.2, 1.005, 100.05]
    for (const v of cases) for (const places of [0, 2, 4]) expect(written(v, places), `${v} at ${places}`).toBe(JSON.stringify(v))
  })

  it('writes values not rounded to the places given as JSON.stringify does (through the general path)', () => {
    for (const v of [Math.PI, -Math.E, 1 / 3, 2 / 3 * 1e6, 5e-7, 1e-7, 123.456789]) for (const places of [0, 2, 4]) expect(written(v, places)).toBe(JSON.stringify(v))
    expect(written(12.34567, 7)).toBe('12.34567') // more places than the table: the general path
  })

  it('writes a count of 10^−places as JSON.stringify writes that double, signed', () => {
    const random = lcg(11)
    for (let k = 0; k < 20_000; k++) {
      const places = k % 5
      const units = Math.floor(random() * 10 ** (Math.floor(random() * 17)))
      const negative = random() < 0.3
      const v = units / 10 ** places
      expect(text(new JsonBytes(4).decimal(units, places, negative)), `${units} at ${places}`).toBe(JSON.stringify(negative ? -v : v))
    }
    expect(text(new JsonBytes().decimal(0, 4, true))).toBe('0')
    expect(text(new JsonBytes().decimal(123456, 6, false))).toBe('0.123456')
  })

  it('writes null for null, NaN and the infinities, and 0 for −0', () => {
    for (const v of [null, Number.NaN, Infinity, -Infinity]) expect(written(v, 4)).toBe('null')
    expect(written(-0, 4)).toBe('0')
    expect(written(0, 2)).toBe('0')
  })

  it('writes short and long, plain and escaped strings as JSON.stringify does', () => {
    const cases = ['', 'sh600519', '2026-11-20 10:30:00', 'a"b', 'a\\b', 'tab\there', '\u007f', 'é', 'x'.repeat(32), 'x'.repeat(33), 'x'.repeat(31) + '"', '~!@#$%^&*()_+{}|:<>?']
    for (const c of cases) expect(text(new JsonBytes(1).string(c)), JSON.stringify(c)).toBe(JSON.stringify(c))
  })

  it('writes strings escaped as JSON.stringify does, in UTF-8', () => {
    const w = new JsonBytes(4)
    const s = '贵州茅台 "A"\\\n\u0001 万科Ａ 😀'
    w.string(s).json(',').string(null)
    expect(text(w)).toBe(`${JSON.stringify(s)},null`)
  })

  it('grows past its first capacity; a view of a piece written before stays as it was', () => {
    const w = new JsonBytes(2)
    const first = w.number(-3.5, 1).view(0)
    const from = w.length
    for (let k = 0; k < 1000; k++) w.number(k + 0.25, 2).json(',')
    const rest = new TextDecoder().decode(w.view(from))
    expect(rest.split(',').slice(0, 3)).toEqual(['0.25', '1.25', '2.25'])
    expect(w.length).toBe(text(w).length)
    expect(new TextDecoder().decode(first)).toBe('-3.5')
  })
})
