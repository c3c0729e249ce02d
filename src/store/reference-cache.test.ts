import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { ReferenceCache, STALE_IF_ERROR, staleAllowed } from './reference-cache'

const HOUR = 3_600_000
const DAY = 24 * HOUR
/** Friday 2026-11-20, 10:30 Beijing: inside a session. */
const FRI_1030 = Date.parse('2026-11-20T10:30:00+08:00')

// One cache for the file, forgotten before each test, as the emulator's reset forgets the isolate's.
const cache = new ReferenceCache()
const clearReferenceMemory = () => cache.clear()
const referenceCached: ReferenceCache['cached'] = (...args) => cache.cached(...args)
const keepLastGoodEvery: ReferenceCache['keepLastGoodEvery'] = (...args) => cache.keepLastGoodEvery(...args)
const lastGood: ReferenceCache['lastGood'] = (...args) => cache.lastGood(...args)

beforeEach(() => clearReferenceMemory())

describe('staleAllowed', () => {
  it('serves slow-moving reference data for days, never data fetched after now', () => {
    expect(staleAllowed('dividend', FRI_1030 - 6 * DAY, FRI_1030)).toBe(true)
    expect(staleAllowed('dividend', FRI_1030 - 7 * DAY, FRI_1030)).toBe(false)
    expect(staleAllowed('overviewDaily', FRI_1030 - 2 * DAY, FRI_1030)).toBe(true)
    expect(staleAllowed('overviewDaily', FRI_1030 - 3 * DAY, FRI_1030)).toBe(false)
    expect(staleAllowed('search', FRI_1030 + 1, FRI_1030)).toBe(false)
  })

  it('serves money flows only while the copy holds the latest complete session', () => {
    // Fetched Thursday after 15:30: holds Thursday, the latest complete session until Friday 15:30.
    const thuEvening = Date.parse('2026-11-19T16:00:00+08:00')
    expect(staleAllowed('fundFlow', thuEvening, FRI_1030)).toBe(true)
    expect(staleAllowed('fundFlow', thuEvening, Date.parse('2026-11-20T15:20:00+08:00'))).toBe(true)
    expect(staleAllowed('fundFlow', thuEvening, Date.parse('2026-11-20T15:40:00+08:00'))).toBe(false)
    // Fetched Thursday 14:00: Thursday was not complete yet.
    expect(staleAllowed('fundFlow', Date.parse('2026-11-19T14:00:00+08:00'), FRI_1030)).toBe(false)
    // Friday evening's copy holds Friday through the weekend.
    expect(staleAllowed('fundFlow', Date.parse('2026-11-20T16:00:00+08:00'), Date.parse('2026-11-22T20:00:00+08:00'))).toBe(true)
  })

  it('never serves intraday data stale', () => {
    for (const cls of ['quote', 'snapshot', 'orderbook', 'hot', 'changedist', 'overviewIntraday'] as const) {
      expect(STALE_IF_ERROR[cls]).toEqual({ never: true })
      expect(staleAllowed(cls, FRI_1030 - 1000, FRI_1030)).toBe(false)
    }
  })
})

describe('referenceCached with stale-if-error', () => {
  const kv = () => env.CACHE
  const good = async () => ({ value: 'good', keep: true })
  const failed = async () => ({ value: null, keep: false })

  it('keeps a good answer as the last good copy and serves it, marked stale, once the answer fails', async () => {
    const first = await referenceCached(kv(), 'test?a', FRI_1030, good, HOUR, { cls: 'dividend' })
    expect(first).toMatchObject({ value: 'good', hit: false })
    expect(first.stale).toBeUndefined()
    // Past the cache's TTL the upstream is asked again, and fails: the copy stands in, with its own time.
    const later = await referenceCached<string | null>(kv(), 'test?a', FRI_1030 + 2 * HOUR, failed, HOUR, { cls: 'dividend' })
    expect(later).toEqual({ at: FRI_1030, value: 'good', hit: false, stale: true })
  })

  it('does not serve a copy older than its class allows, nor for a failure it is told not to serve', async () => {
    await referenceCached(kv(), 'test?b', FRI_1030, good, HOUR, { cls: 'overviewDaily' })
    expect(await referenceCached<string | null>(kv(), 'test?b', FRI_1030 + 4 * DAY, failed, HOUR, { cls: 'overviewDaily' })).toMatchObject({ value: null })
    expect(await referenceCached<string | null>(kv(), 'test?b', FRI_1030 + 2 * HOUR, failed, HOUR, { cls: 'overviewDaily', serve: () => false })).toMatchObject({ value: null })
    // Without stale options nothing stands in.
    expect(await referenceCached<string | null>(kv(), 'test?b', FRI_1030 + 2 * HOUR, failed, HOUR)).toMatchObject({ value: null })
  })

  it('finds the copy under its own key when the cache key names the day', async () => {
    await referenceCached(kv(), 'test?c&today=2026-11-19', FRI_1030 - DAY, good, HOUR, { cls: 'macro', key: 'test?c' })
    const r = await referenceCached<string | null>(kv(), 'test?c&today=2026-11-20', FRI_1030, failed, HOUR, { cls: 'macro', key: 'test?c' })
    expect(r).toMatchObject({ value: 'good', at: FRI_1030 - DAY, stale: true })
  })

  it('forgets every copy when the memory is cleared (a reset emulator is a new world)', async () => {
    await referenceCached(kv(), 'test?d', FRI_1030, good, HOUR, { cls: 'search' })
    clearReferenceMemory()
    expect(await referenceCached<string | null>(kv(), 'test?d', FRI_1030 + 2 * HOUR, failed, HOUR, { cls: 'search' })).toMatchObject({ value: null })
  })
})

describe('keepLastGoodEvery', () => {
  it('writes a key at most once per interval in this isolate', async () => {
    await keepLastGoodEvery(env.CACHE, 'test?e', { at: FRI_1030, value: 1 }, HOUR)
    await keepLastGoodEvery(env.CACHE, 'test?e', { at: FRI_1030 + HOUR / 2, value: 2 }, HOUR)
    expect(await lastGood(env.CACHE, 'test?e')).toEqual({ at: FRI_1030, value: 1 })
    await keepLastGoodEvery(env.CACHE, 'test?e', { at: FRI_1030 + HOUR, value: 3 }, HOUR)
    expect(await lastGood(env.CACHE, 'test?e')).toEqual({ at: FRI_1030 + HOUR, value: 3 })
  })
})
