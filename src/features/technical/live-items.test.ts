import { afterEach, describe, expect, it } from 'vitest'
import { FRESHNESS_MS } from '../../services/shared-answers'
import { LiveItems } from './live-items'

const bytes = new TextEncoder().encode('{"code":"sh600519","ok":true,"data":{}}')
const T = 1_000_000

describe('live items kept for one quote window', () => {
  let live = new LiveItems()
  afterEach(() => {
    live = new LiveItems()
  })

  it('serves an item for the window after its quote was asked for, not at its end', () => {
    live.keep('sh600519', T, '2026-11-19', { kind: 'row', bytes, date: '2026-11-20', asOf: '2026-11-20 10:30:00' })
    expect(live.fresh('sh600519', T, '2026-11-19')).toMatchObject({ kind: 'row', asOf: '2026-11-20 10:30:00' })
    expect(live.fresh('sh600519', T + FRESHNESS_MS.liveRow - 1, '2026-11-19')).toBeDefined()
    expect(live.fresh('sh600519', T + FRESHNESS_MS.liveRow, '2026-11-19')).toBeUndefined()
  })

  it('serves nothing stepped from another table, for another stock, or when the clock went back', () => {
    live.keep('sh600519', T, '2026-11-19', { kind: 'previous' })
    expect(live.fresh('sh600519', T + 1, '2026-11-18')).toBeUndefined()
    expect(live.fresh('sz000001', T + 1, '2026-11-19')).toBeUndefined()
    expect(live.fresh('sh600519', T - 1, '2026-11-19')).toBeUndefined()
  })

  it('drops expired items once a window, so only recent stocks are held', () => {
    for (let k = 0; k < 100; k++) live.keep(`sz${String(k).padStart(6, '0')}`, T, '2026-11-19', { kind: 'previous' })
    expect(live.size).toBe(100)
    live.keep('sh600519', T + FRESHNESS_MS.liveRow, '2026-11-19', { kind: 'previous' })
    expect(live.size).toBe(1)
  })

  it('lets a call wait for the result of another call already asking for a stock, until it is settled', async () => {
    const asking = live.askingFor(['sh600519', 'sz000001', 'sh600519'], '2026-11-19')
    const waiting = live.pending('sh600519', '2026-11-19')!
    expect(live.pending('sh600519', '2026-11-18')).toBeUndefined()
    expect(live.pending('bj830799', '2026-11-19')).toBeUndefined()
    asking.settle('sh600519', { kind: 'row', bytes, date: '2026-11-20' })
    expect(await waiting).toEqual({ kind: 'row', bytes, date: '2026-11-20' })
    expect(live.pending('sh600519', '2026-11-19')).toBeUndefined()
    // a call that stops half way settles the rest, so nobody waits for ever
    const other = live.pending('sz000001', '2026-11-19')!
    asking.settleRest({ kind: 'full' })
    expect(await other).toEqual({ kind: 'full' })
    expect(live.pending('sz000001', '2026-11-19')).toBeUndefined()
  })

  it('shares nothing while sharing is off (the bench\'s cold rows)', () => {
    live.keep('sh600519', T, '2026-11-19', { kind: 'previous' })
    const asking = live.askingFor(['sz000001'], '2026-11-19')
    live.share(false)
    try {
      expect(live.fresh('sh600519', T, '2026-11-19')).toBeUndefined()
      expect(live.pending('sz000001', '2026-11-19')).toBeUndefined()
    } finally {
      live.share(true)
    }
    expect(live.fresh('sh600519', T, '2026-11-19')).toBeDefined()
    asking.settleRest({ kind: 'full' })
  })
})
