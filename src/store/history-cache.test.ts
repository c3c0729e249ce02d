import { describe, expect, it } from 'vitest'
import { countingBucket } from './counting-bucket'
import { appendBars, emptyHistory } from './history'
import { HistoryCache } from './history-cache'
import { historyKey } from './keys'

const bar = (date: string, close: number) => ({ date, open: close, high: close, low: close, close, volume: 100, amount: close * 100, turnover: null })

function historyText(closes: number[]): string {
  const h = emptyHistory('sh600519')
  appendBars(h, closes.map((c, i) => bar(`2026-11-${String(10 + i).padStart(2, '0')}`, c)))
  return JSON.stringify(h)
}

describe('HistoryCache', () => {
  it('parses a history once, asks R2 on every read whether it changed, and reads a rewritten one at once', async () => {
    const { bucket, calls } = countingBucket()
    const cache = new HistoryCache()
    bucket.put(historyKey('sh600519'), historyText([10, 11]))
    const first = await cache.history(bucket, 'sh600519')
    expect(first?.c).toEqual([10, 11])
    expect(await cache.history(bucket, 'sh600519')).toBe(first)
    expect(calls).toEqual({ head: 1, get: 1 })

    bucket.put(historyKey('sh600519'), historyText([10, 11, 12]))
    expect((await cache.history(bucket, 'sh600519'))?.c).toEqual([10, 11, 12])
    expect(calls).toEqual({ head: 2, get: 2 })
  })

  it('answers undefined for a history not built, or deleted since it was read', async () => {
    const { bucket } = countingBucket()
    const cache = new HistoryCache()
    expect(await cache.history(bucket, 'sz000001')).toBeUndefined()
    bucket.put(historyKey('sz000001'), historyText([5]))
    expect(await cache.history(bucket, 'sz000001')).toBeDefined()
    bucket.delete(historyKey('sz000001'))
    expect(await cache.history(bucket, 'sz000001')).toBeUndefined()
  })

  it('refuses a malformed object as readHistory does, and reads everything again after clear()', async () => {
    const { bucket, calls } = countingBucket()
    const cache = new HistoryCache()
    bucket.put(historyKey('sh600000'), JSON.stringify({ v: 99 }))
    await expect(cache.history(bucket, 'sh600000')).rejects.toThrow(/unknown version/)
    bucket.put(historyKey('sh600519'), historyText([10]))
    await cache.history(bucket, 'sh600519')
    cache.clear()
    await cache.history(bucket, 'sh600519')
    expect(calls.get).toBe(3)
  })
})
