import { env, runInDurableObject } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { FLUSH_MS, WriteBehindCounters } from './counters'
import type { KeyAdmitRequest, KeyGuard } from './key-guard'

const stored = (storage: DurableObjectStorage) =>
  storage.sql.exec<{ k: string; v: number }>('SELECT k, v FROM counters ORDER BY k').toArray().map((r) => [r.k, r.v])

/** Runs `fn` inside a fresh Durable Object, with its storage. */
const inObject = <T>(name: string, fn: (storage: DurableObjectStorage) => T | Promise<T>) =>
  runInDurableObject(env.KEY_GUARD.getByName(`counters-${name}`), (_o, state) => fn(state.storage))

describe('WriteBehindCounters', () => {
  it('answers from memory at once and writes to SQLite on flush', async () => {
    await inObject('flush', (storage) => {
      const c = new WriteBehindCounters(storage, 60_000)
      expect(c.add('a', 3)).toBe(3)
      c.raise('clock', 100)
      c.raise('clock', 50)
      expect([c.get('a'), c.get('clock')]).toEqual([3, 100])
      expect(stored(storage)).toEqual([])
      c.flush()
      expect(stored(storage)).toEqual([['a', 3], ['clock', 100]])
      c.flush()
      expect(stored(storage)).toEqual([['a', 3], ['clock', 100]])
    })
  })

  it('flushes by itself within FLUSH_MS, and a new instance (a restarted object) reads the values back', async () => {
    await inObject('timer', async (storage) => {
      const c = new WriteBehindCounters(storage)
      c.add('units:2026-11-20:quote', 7)
      await new Promise((r) => setTimeout(r, FLUSH_MS + 100))
      expect(stored(storage)).toEqual([['units:2026-11-20:quote', 7]])
      expect(new WriteBehindCounters(storage).get('units:2026-11-20:quote')).toBe(7)
    })
  })

  it('never goes below zero, and a zero deletes the row', async () => {
    await inObject('zero', (storage) => {
      const c = new WriteBehindCounters(storage, 60_000)
      c.add('n', 2)
      c.flush()
      expect(c.add('n', -5)).toBe(0)
      c.flush()
      expect(stored(storage)).toEqual([])
    })
  })

  it('lists and deletes by prefix, in memory and in SQLite alike', async () => {
    await inObject('prefix', (storage) => {
      const c = new WriteBehindCounters(storage, 60_000)
      for (const d of ['2026-11-18', '2026-11-19', '2026-11-20']) c.add(`rows:${d}`, 1)
      c.add('pow', 5)
      expect(c.entries('rows:').map(([k]) => k)).toEqual(['rows:2026-11-18', 'rows:2026-11-19', 'rows:2026-11-20'])
      c.deleteBefore('rows:', '2026-11-20')
      expect([c.get('rows:2026-11-18'), c.get('rows:2026-11-20'), c.get('pow')]).toEqual([0, 1, 5])
      expect(stored(storage)).toEqual([['pow', 5], ['rows:2026-11-20', 1]])
    })
  })
})

describe('KeyGuard counters', () => {
  it('survive the object: what an admitted call counted is in SQLite shortly after', async () => {
    const g = env.KEY_GUARD.getByName('counters-admit') as DurableObjectStub<KeyGuard>
    const req: KeyAdmitRequest = {
      now: Date.parse('2026-11-20T10:00:00+08:00'), ip: '203.0.113.1', endpoint: 'quote', units: 1,
      heavy: false, perMinute: 600, heavyPerDay: 0, packUnits: 10,
    }
    for (let i = 0; i < 3; i++) expect((await g.admit(req)).ok).toBe(true)
    await new Promise((r) => setTimeout(r, FLUSH_MS + 100))
    const rows = await runInDurableObject(g, (_o, state) => Object.fromEntries(stored(state.storage)))
    expect(rows).toMatchObject({ 'units:2026-11-20:quote': 3, 'calls:2026-11-20:quote': 3, lifetime: 3 })
  })
})
