import { afterEach, describe, expect, it } from 'vitest'
import { FRESHNESS_MS } from '../http/market-cache'
import { clearLiveItems, freshLiveItem, keepLiveItem, liveItemsKept } from './live-items'

const bytes = new TextEncoder().encode('{"code":"sh600519","ok":true,"data":{}}')
const T = 1_000_000

describe('live items kept for one quote window', () => {
  afterEach(clearLiveItems)

  it('serves an item for the window after its quote was asked for, not at its end', () => {
    keepLiveItem('sh600519', T, '2026-11-19', { kind: 'row', bytes, asOf: '2026-11-20 10:30:00' })
    expect(freshLiveItem('sh600519', T, '2026-11-19')).toMatchObject({ kind: 'row', asOf: '2026-11-20 10:30:00' })
    expect(freshLiveItem('sh600519', T + FRESHNESS_MS.liveRow - 1, '2026-11-19')).toBeDefined()
    expect(freshLiveItem('sh600519', T + FRESHNESS_MS.liveRow, '2026-11-19')).toBeUndefined()
  })

  it('serves nothing stepped from another table, for another stock, or when the clock went back', () => {
    keepLiveItem('sh600519', T, '2026-11-19', { kind: 'previous' })
    expect(freshLiveItem('sh600519', T + 1, '2026-11-18')).toBeUndefined()
    expect(freshLiveItem('sz000001', T + 1, '2026-11-19')).toBeUndefined()
    expect(freshLiveItem('sh600519', T - 1, '2026-11-19')).toBeUndefined()
  })

  it('drops expired items once a window, so only recent stocks are held', () => {
    for (let k = 0; k < 100; k++) keepLiveItem(`sz${String(k).padStart(6, '0')}`, T, '2026-11-19', { kind: 'previous' })
    expect(liveItemsKept()).toBe(100)
    keepLiveItem('sh600519', T + FRESHNESS_MS.liveRow, '2026-11-19', { kind: 'previous' })
    expect(liveItemsKept()).toBe(1)
  })
})
