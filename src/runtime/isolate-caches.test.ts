import { describe, expect, it } from 'vitest'
import { cacheKind, IsolateCaches } from './isolate-caches'

const MAP = cacheKind('test map', () => new Map<number, string>(), (m) => m.clear())
const SET = cacheKind('test set', () => new Set<string>(), (s) => s.clear())

describe('isolate caches', () => {
  it('hands out one instance of each kind per owner, made on first use', () => {
    const caches = new IsolateCaches()
    expect(caches.names()).toEqual([])
    caches.of(MAP).set(1, 'x')
    expect(caches.of(MAP).get(1)).toBe('x')
    expect(new IsolateCaches().of(MAP).size).toBe(0) // another Services' cache
    expect(caches.names()).toEqual(['test map'])
  })

  it('forgets every cache in one call, keeping the instances', () => {
    const caches = new IsolateCaches()
    const map = caches.of(MAP)
    map.set(1, 'x')
    caches.of(SET).add('y')
    caches.clear()
    expect(map.size + caches.of(SET).size).toBe(0)
    expect(caches.of(MAP)).toBe(map)
  })
})

describe('declared kinds', () => {
  it('are listed made or not, and a kind is made with its owner clock', () => {
    const CLOCKED = cacheKind('test clock', (env) => ({ at: env.now() }), () => {})
    expect(IsolateCaches.names()).toEqual(expect.arrayContaining(['test map', 'test set', 'test clock']))
    expect(new IsolateCaches({ now: () => 42 }).of(CLOCKED).at).toBe(42)
  })
})
