import { describe, expect, it } from 'vitest'
import type { Bar } from '../domain/bar'
import { RecentBarsCache } from './recent-bars'

const T0 = Date.parse('2026-11-20T10:30:00+08:00')
const bar = (date: string): Bar => ({ date, open: 1, close: 1, high: 1, low: 1, volume: 100, amount: 100, turnover: 0 })

describe('RecentBarsCache', () => {
  it('loads once per channel, code, count and day within the minute', async () => {
    const cache = new RecentBarsCache(60_000)
    let loads = 0
    const load = async () => (loads++, [bar('2026-11-19')])
    await cache.get('tencent', 'sh600519', 30, T0, load)
    await cache.get('tencent', 'sh600519', 30, T0 + 59_000, load)
    expect(loads).toBe(1)
    await cache.get('sina', 'sh600519', 30, T0, load)
    await cache.get('tencent', 'sh600519', 5, T0, load)
    await cache.get('tencent', 'sh600519', 30, T0 + 60_000, load)
    expect(loads).toBe(4)
  })

  it('keeps loads up to a number of bars, not of entries: thousands of short tails, a few hundred long ones', async () => {
    const cache = new RecentBarsCache()
    let loads = 0
    const load = async () => (loads++, [bar('2026-11-19')])
    const codes = (n: number) => Array.from({ length: n }, (_, k) => `sz${String(k).padStart(6, '0')}`)
    for (const code of codes(7_000)) await cache.get('store', code, 31, T0, load)
    // 7,000 tails of 31 bars (217,000) all stay: the first is still kept.
    await cache.get('store', 'sz000000', 31, T0, load)
    expect(loads).toBe(7_000)
    // 100 loads of 1,212 bars push the oldest tails out, not the newest.
    for (const code of codes(100)) await cache.get('tencent', code, 1212, T0, load)
    await cache.get('store', 'sz006999', 31, T0, load)
    expect(loads).toBe(7_100)
    await cache.get('store', 'sz000000', 31, T0, load)
    expect(loads).toBe(7_101)
  })

  it('shares one request between concurrent misses and forgets a failure', async () => {
    const cache = new RecentBarsCache(60_000)
    let loads = 0
    const failing = () => (loads++, Promise.reject(new Error('upstream down')))
    const both = await Promise.allSettled([cache.get('tencent', 'sz000001', 30, T0, failing), cache.get('tencent', 'sz000001', 30, T0, failing)])
    expect(both.map((r) => r.status)).toEqual(['rejected', 'rejected'])
    expect(loads).toBe(1)
    const bars = await cache.get('tencent', 'sz000001', 30, T0, async () => [bar('2026-11-19')])
    expect(bars).toHaveLength(1)
  })

  it('keeps the bars of the day past their age for kept(), and a failed reload does not lose them', async () => {
    const cache = new RecentBarsCache(60_000)
    expect(cache.kept('tencent', 'sh600519', 30, T0)).toBeUndefined()
    const bars = [bar('2026-11-19')]
    await cache.get('tencent', 'sh600519', 30, T0, async () => bars)
    await expect(cache.get('tencent', 'sh600519', 30, T0 + 120_000, () => Promise.reject(new Error('over budget')))).rejects.toThrow()
    expect(cache.kept('tencent', 'sh600519', 30, T0 + 120_000)).toBe(bars)
    // Still expired: the next call asks again.
    let loads = 0
    await cache.get('tencent', 'sh600519', 30, T0 + 121_000, async () => (loads++, bars))
    expect(loads).toBe(1)
    // Another day keeps nothing.
    expect(cache.kept('tencent', 'sh600519', 30, T0 + 86_400_000)).toBeUndefined()
  })

  it('asks again when the clock goes backwards or the day changes', async () => {
    const cache = new RecentBarsCache(60_000)
    let loads = 0
    const load = async () => (loads++, [bar('2026-11-19')])
    await cache.get('tencent', 'sh600519', 30, T0, load)
    await cache.get('tencent', 'sh600519', 30, T0 - 1_000, load)
    await cache.get('tencent', 'sh600519', 30, T0 + 14 * 3_600_000, load)
    expect(loads).toBe(3)
  })

  it('waits for a load another request started at most joinMs, then loads its own (a load whose request ended never settles)', async () => {
    const cache = new RecentBarsCache(60_000, 30)
    void cache.get('tencent', 'sh600519', 30, T0, () => new Promise<Bar[]>(() => {}))
    let loads = 0
    const bars = await cache.get('tencent', 'sh600519', 30, T0, async () => (loads++, [bar('2026-11-19')]))
    expect(bars).toHaveLength(1)
    expect(loads).toBe(1)
    // The fresh load replaced the abandoned one.
    expect(await cache.get('tencent', 'sh600519', 30, T0, async () => (loads++, []))).toHaveLength(1)
    expect(loads).toBe(1)
  })
})
