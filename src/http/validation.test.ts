import { describe, expect, it } from 'vitest'
import { mayRepeatParams, quotedExcerpt, repeatedParams, validationBody } from './validation'

describe('mayRepeatParams', () => {
  it('is false for a query whose plain names are all different, or no query', () => {
    expect(mayRepeatParams('https://x/v1/quote')).toBe(false)
    expect(mayRepeatParams('https://x/v1/quote?')).toBe(false)
    expect(mayRepeatParams('https://x/v1/quote?code=sh600519&count=5&flag')).toBe(false)
    expect(mayRepeatParams('https://x/v1/quote?code=a&&count=5')).toBe(false)
  })

  it('is true when a name repeats, with or without a value', () => {
    expect(mayRepeatParams('https://x/v1/quote?code=a&count=5&code=b')).toBe(true)
    expect(mayRepeatParams('https://x/v1/quote?code&code=b')).toBe(true)
    expect(mayRepeatParams('https://x/v1/quote?code=&code=')).toBe(true)
  })

  it('is true when a name needs decoding to be compared (it may spell another one)', () => {
    expect(mayRepeatParams('https://x/v1/quote?code=a&c%6Fde=b')).toBe(true)
    expect(mayRepeatParams('https://x/v1/quote?a+b=1')).toBe(true)
  })

  it('looks at the query only: values and the fragment do not count', () => {
    expect(mayRepeatParams('https://x/v1/quote?code=a%26code%3Db&count=1')).toBe(false)
    expect(mayRepeatParams('https://x/v1/quote?code=a#code=b')).toBe(false)
  })

  it('never says false where the full parse finds a repeat', () => {
    const urls = ['?code=a&code=b', '?c%6Fde=a&code=b', '?code=a&code', '?x=1&y=2&x=3', '?a+b=1&a%20b=2']
    for (const q of urls) {
      const url = new URL(`https://x/v1/quote${q}`)
      const lists: Record<string, string[]> = {}
      for (const [k, v] of url.searchParams) (lists[k] ??= []).push(v)
      if (repeatedParams(lists).length) expect(mayRepeatParams(url.href), q).toBe(true)
    }
  })
})

describe('every echo of what was sent is bounded (256 characters)', () => {
  it('quotedExcerpt: JSON text whole within the bound, else cut with … and the length', () => {
    expect(quotedExcerpt('abc')).toBe('"abc"')
    expect(quotedExcerpt('x'.repeat(256))).toBe(JSON.stringify('x'.repeat(256)))
    expect(quotedExcerpt('x'.repeat(900_000))).toBe(`${JSON.stringify('x'.repeat(256))}… (900000 characters)`)
  })

  it('a 422 cuts a long string input, a list or object input whose JSON is long, and a long name in loc', () => {
    const [text, list, small, name] = validationBody([
      { type: 'value_error', loc: ['query', 'code'], msg: 'bad', input: 'c'.repeat(8000) },
      { type: 'type_error', loc: ['body', 'codes'], msg: 'bad', input: ['c'.repeat(8000)] },
      { type: 'type_error', loc: ['body', 'codes'], msg: 'bad', input: ['sh600519'] },
      { type: 'value_error', loc: ['body', 'k'.repeat(100_000)], msg: 'Unknown argument', input: 1 },
    ]).detail
    expect(text).toMatchObject({ input: 'c'.repeat(256), input_truncated: true, input_length: 8000 })
    expect(list).toMatchObject({ input: `["${'c'.repeat(254)}`, input_truncated: true, input_length: 8004 })
    expect(small).toEqual({ type: 'type_error', loc: ['body', 'codes'], msg: 'bad', input: ['sh600519'] })
    expect(name.loc).toEqual(['body', `${'k'.repeat(256)}…`])
  })
})
