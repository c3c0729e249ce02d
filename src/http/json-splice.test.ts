import { describe, expect, it } from 'vitest'
import { asciiHeadBefore, headThrough, slotIn, slotOf, spliceBytes, tailAfter, tailWith, withFirstMember } from './json-splice'

/** Strings JSON.stringify escapes or writes in more than one UTF-8 byte a character. */
const ODD = ['', 'plain', 'a "quoted" word', 'back\\slash\\', 'line\u2028sep\u2029para', 'non-BMP 𝄞 😀', '贵州茅台', 'ctl \u0000\u001f\n\t', 'lone \ud800 surrogate', '</script>', '"elapsed_ms":12']

const VALUES: unknown[] = [null, true, false, 0, -0, 1.5, -12.345, 1e21, 5e-7, ...ODD, [], [1, 'a"b', null], { x: ODD }, { 'k"ey': 1, 'b\\': [{ 'u\u2028': '𝄞' }] }]

const utf8 = new TextEncoder()
const decoded = (b: Uint8Array) => new TextDecoder().decode(b)

/** Every way of putting `key` between members drawn from the odd strings. */
function* objects(): Generator<{ before: Record<string, unknown>; after: Record<string, unknown>; key: string }> {
  const keys = ['ok', 'endpoint', 'a "q"', 'b\\s', 'c\u2028', 'd𝄞', '名称']
  for (const key of ['data', 'elapsed_ms', 'x"y', '\u2029']) {
    for (let n = 0; n <= keys.length; n++) {
      const before: Record<string, unknown> = {}
      const after: Record<string, unknown> = {}
      keys.forEach((k, i) => {
        const v = VALUES[(i * 7 + n) % VALUES.length]
        if (i < n) before[k] = v
        else after[`${k}2`] = v
      })
      yield { before, after, key }
    }
  }
}

describe('json-splice', () => {
  it('head + JSON.stringify(value) + tail is JSON.stringify of the whole, for every odd value and member', () => {
    let cases = 0
    for (const { before, after, key } of objects()) {
      for (const v of VALUES) {
        const whole = JSON.stringify({ ...before, [key]: v, ...after })
        expect(headThrough(before, key) + JSON.stringify(v) + tailAfter(after)).toBe(whole)
        const slot = slotOf({ ...before, [key]: v, ...after }, key)
        expect(slot.head + JSON.stringify(v) + slot.tail).toBe(whole)
        cases++
      }
    }
    expect(cases).toBeGreaterThan(500)
  })

  it('empty sides: an object of the one member', () => {
    expect(headThrough({}, 'data') + '[1]' + tailAfter({})).toBe(JSON.stringify({ data: [1] }))
    expect(slotOf({ data: 'x"\u2028' }, 'data')).toEqual({ head: '{"data":', tail: '}' })
  })

  it('leaves out what JSON.stringify leaves out', () => {
    const v = { a: undefined, b: 1, data: 2, c: undefined, d: () => 0, e: 'x' }
    const { head, tail } = slotOf(v, 'data')
    expect(head + '2' + tail).toBe(JSON.stringify(v))
  })

  it('refuses to cut around a member the value does not have', () => {
    expect(() => slotOf({ a: 1 }, 'data')).toThrow(/no member/)
  })

  it('spliced bytes are the UTF-8 of JSON.stringify, for a value and for an array of parts', () => {
    for (const { before, after, key } of objects()) {
      const items = ODD.map((s) => ({ code: s, ok: true, data: [s, 1.25] }))
      const head = headThrough(before, key)
      const tail = tailAfter(after)
      const whole = JSON.stringify({ ...before, [key]: items, ...after })
      const parts = items.map((x) => utf8.encode(JSON.stringify(x)))
      expect(decoded(spliceBytes(`${head}[`, parts, `]${tail}`, 44))).toBe(whole)
      expect(spliceBytes(`${head}[`, parts, `]${tail}`, 44)).toEqual(utf8.encode(whole))
      expect(decoded(spliceBytes(utf8.encode(head), [utf8.encode(JSON.stringify(items))], utf8.encode(tail)))).toBe(whole)
      expect(decoded(spliceBytes(`${head}[`, [], `]${tail}`, 44))).toBe(JSON.stringify({ ...before, [key]: [], ...after }))
    }
  })

  it('an ASCII head before kept bytes, and a head that is not ASCII', () => {
    const tail = utf8.encode(tailAfter({ source: 'x', data: ODD }))
    for (const endpoint of ['hot', '热门 𝄞', 'q"\u2028']) {
      const fields = { ok: true, endpoint, tier: 'free' }
      const head = headThrough(fields, 'elapsed_ms') + '12'
      expect(decoded(asciiHeadBefore(head, tail))).toBe(JSON.stringify({ ...fields, elapsed_ms: 12, source: 'x', data: ODD }))
    }
  })

  it('a kept answer cut around its elapsed_ms: its own bytes after the value, then `cached`', () => {
    for (const { before, after } of objects()) {
      for (const elapsed of [0, 7, 1234]) {
        const value = { ...before, elapsed_ms: elapsed, ...after }
        const text = JSON.stringify(value)
        const { head, tail } = slotIn(text, JSON.parse(text), 'elapsed_ms')
        expect(head + elapsed + tail).toBe(text)
        expect(head + '99' + tailWith(tail, { cached: true })).toBe(JSON.stringify({ ...value, elapsed_ms: 99, cached: true }))
      }
    }
  })

  it('a string holding "elapsed_ms": is not taken for the member', () => {
    const value = { ok: true, note: '"elapsed_ms":5,', elapsed_ms: 3, data: ['"elapsed_ms":1'] }
    const text = JSON.stringify(value)
    const { head, tail } = slotIn(text, value, 'elapsed_ms')
    expect(head + '42' + tail).toBe(JSON.stringify({ ...value, elapsed_ms: 42 }))
  })

  it('a text written otherwise than JSON.stringify: both parts made from the value', () => {
    const value = { ok: true, elapsed_ms: 12, data: [1] }
    const { head, tail } = slotIn('{"ok":true,"elapsed_ms":12.0,"data":[1.0]}', value, 'elapsed_ms')
    expect(head + '12' + tail).toBe(JSON.stringify(value))
  })

  it('tailWith adds members to an empty tail and to a full one', () => {
    expect(tailWith('}', { cached: true })).toBe(',"cached":true}')
    expect(tailWith(',"a":1}', { cached: true })).toBe(',"a":1,"cached":true}')
    expect(tailWith(',"a":1}', {})).toBe(',"a":1}')
  })

  it('withFirstMember changes the first member alone, and refuses bytes that do not begin with it', () => {
    for (const was of ODD) {
      for (const now of ['sz000001', ...ODD]) {
        const rest = { ok: true, data: { code: was, name: ODD } }
        const bytes = utf8.encode(JSON.stringify({ code: was, ...rest }))
        expect(decoded(withFirstMember(bytes, 'code', was, now))).toBe(JSON.stringify({ code: now, ...rest }))
      }
    }
    expect(decoded(withFirstMember(utf8.encode('{"code":"a"}'), 'code', 'a', 'b"'))).toBe(JSON.stringify({ code: 'b"' }))
    expect(() => withFirstMember(utf8.encode('{"code":"ab","ok":true}'), 'code', 'a', 'b')).toThrow(/do not begin/)
    expect(() => withFirstMember(utf8.encode('{"ok":true,"code":"a"}'), 'code', 'a', 'b')).toThrow(/do not begin/)
  })
})
