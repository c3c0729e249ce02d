import { env } from 'cloudflare:test'
import { afterEach, describe, expect, it } from 'vitest'
import { LATEST_TECHNICALS_KEY } from './keys'
import { deletePrefix, putJson } from './r2-json'
import { LatestTechnicals, technicalsOf, writeTechnicals } from './technicals'

const T = 1_000_000_000

describe('the latest technicals date', () => {
  let latest = new LatestTechnicals()
  afterEach(async () => {
    latest = new LatestTechnicals()
    await deletePrefix(env.STORE, 'meta/technicals-latest')
  })

  it('is read from R2 once a minute: a pointer moved by another isolate is seen within a minute', async () => {
    await deletePrefix(env.STORE, 'meta/technicals-latest')
    expect(await latest.date(env.STORE, T)).toBeUndefined()
    // no table yet is not remembered: the first one is seen at once
    await putJson(env.STORE, LATEST_TECHNICALS_KEY, { date: '2026-11-19' })
    expect(await latest.date(env.STORE, T + 1)).toBe('2026-11-19')
    await putJson(env.STORE, LATEST_TECHNICALS_KEY, { date: '2026-11-20' }) // the job, in another isolate
    expect(await latest.date(env.STORE, T + 59_999)).toBe('2026-11-19')
    expect(await latest.date(env.STORE, T + 60_001)).toBe('2026-11-20')
    expect(await latest.date(env.STORE, T)).toBe('2026-11-20') // a clock that went back reads again
  })

  it('is seen at once when this isolate writes a newer table and forgets the pointer (as the jobs do), and not moved back by an older one', async () => {
    await writeTechnicals(env.STORE, technicalsOf('2026-11-19', [], {}))
    expect(await latest.date(env.STORE)).toBe('2026-11-19')
    await writeTechnicals(env.STORE, technicalsOf('2026-11-20', [], {}))
    expect(await latest.date(env.STORE)).toBe('2026-11-19') // the minute's copy, until told
    latest.forget()
    expect(await latest.date(env.STORE)).toBe('2026-11-20')
    await writeTechnicals(env.STORE, technicalsOf('2026-11-18', [], {})) // a backfill of an older day
    latest.forget()
    expect(await latest.date(env.STORE)).toBe('2026-11-20')
  })
})
