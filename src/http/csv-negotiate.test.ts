import { describe, expect, it } from 'vitest'
import { admitsJson, preferredFormat } from './csv-negotiate'

describe('preferredFormat', () => {
  it('follows format= whatever the Accept header says', () => {
    expect(preferredFormat('csv', undefined)).toBe('csv')
    expect(preferredFormat('csv', 'application/json')).toBe('csv')
    expect(preferredFormat('json', 'text/csv')).toBe('json')
  })

  it('answers CSV when Accept names text/csv at least as high as application/json', () => {
    expect(preferredFormat(undefined, 'text/csv')).toBe('csv')
    expect(preferredFormat(undefined, 'TEXT/CSV; charset=utf-8')).toBe('csv')
    expect(preferredFormat(undefined, 'text/csv, application/json;q=0.9')).toBe('csv')
    expect(preferredFormat(undefined, 'application/json, text/csv')).toBe('csv')
    expect(preferredFormat(undefined, 'text/csv, */*;q=0.1')).toBe('csv')
  })

  it('keeps JSON for no preference, wildcards, a lower CSV weight, q=0, or an invalid format', () => {
    expect(preferredFormat(undefined, undefined)).toBe('json')
    expect(preferredFormat(undefined, '*/*')).toBe('json')
    expect(preferredFormat(undefined, 'text/*')).toBe('json')
    expect(preferredFormat(undefined, 'application/json, text/csv;q=0.5')).toBe('json')
    expect(preferredFormat(undefined, 'text/csv;q=0')).toBe('json')
    expect(preferredFormat('xml', 'text/csv')).toBe('json')
  })
})

describe('admitsJson', () => {
  it('is true without a header, or for JSON, application/* or */* above q=0', () => {
    for (const a of [undefined, 'application/json', 'text/csv, application/json', 'text/csv, */*;q=0.1', 'application/*']) expect(admitsJson(a), String(a)).toBe(true)
  })
  it('is false for text/csv alone, or JSON at q=0', () => {
    for (const a of ['text/csv', 'text/csv, application/json;q=0', 'text/html']) expect(admitsJson(a), a).toBe(false)
  })
})
