import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { readCursor, readManifest, readRunRecord, recordRun, updateManifest, writeCursor } from './meta'

describe('meta documents', () => {
  it('moves manifest dates only outwards', async () => {
    await updateManifest(env.STORE, { latestMarketKline: '2026-11-19', firstMarketKline: '2026-10-20', universe: 5572 }, 0)
    await updateManifest(env.STORE, { latestMarketKline: '2026-10-30', firstMarketKline: '2026-09-01' }, 1000)
    const m = await readManifest(env.STORE)
    expect(m).toMatchObject({ latestMarketKline: '2026-11-19', firstMarketKline: '2026-09-01', universe: 5572, updated: '1970-01-01T00:00:01.000Z' })
  })

  it('appends runs to one record per job and date', async () => {
    await recordRun(env.STORE, 'market-day', '2026-11-20', { at: 'a', status: 'partial', ms: 1 })
    await recordRun(env.STORE, 'market-day', '2026-11-20', { at: 'b', status: 'done', ms: 2, rows: 5 })
    const rec = await readRunRecord(env.STORE, 'market-day', '2026-11-20')
    expect(rec).toEqual({ job: 'market-day', date: '2026-11-20', runs: [{ at: 'a', status: 'partial', ms: 1 }, { at: 'b', status: 'done', ms: 2, rows: 5 }] })
    expect(await env.STORE.head('meta/runs/market-day-2026-11-20.json')).not.toBeNull()
  })

  it('keeps cursors per job', async () => {
    expect(await readCursor(env.STORE, 'x')).toBeUndefined()
    await writeCursor(env.STORE, 'x', { next: 3 })
    expect(await readCursor(env.STORE, 'x')).toEqual({ next: 3 })
  })
})
