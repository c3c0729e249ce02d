import { describe, expect, it } from 'vitest'
import { mayRepeatParams, repeatedParams } from './validation'

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
