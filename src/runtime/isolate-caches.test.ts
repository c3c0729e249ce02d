import { describe, expect, it } from 'vitest'
import { clearIsolateCaches, isolateCacheNames, registerIsolateCache } from './isolate-caches'

describe('isolate caches', () => {
  it('forgets every registered cache in one call', () => {
    const a = new Map([[1, 'x']])
    const b = new Set(['y'])
    registerIsolateCache('test a', () => a.clear())
    registerIsolateCache('test b', () => b.clear())
    expect(isolateCacheNames()).toEqual(expect.arrayContaining(['test a', 'test b']))
    clearIsolateCaches()
    expect(a.size + b.size).toBe(0)
  })
})
