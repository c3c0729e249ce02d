import { env } from 'cloudflare:test'
import { afterEach, describe, expect, it } from 'vitest'
import { LATEST_TECHNICALS_KEY } from './keys'
import { deletePrefix, putJson } from './r2-json'
import { forgetLatestTechnicals, latestTechnicalsDate, technicalsOf, writeTechnicals } from './technicals'

const T = 1_000_000_000

describe('the latest technicals date', () => {
  afterEach(async () => {
    forgetLatestTechnicals()
    await deletePrefix(env.STORE, 'meta/technicals-latest')
  })

  it('is read from R2 once a minute: a pointer moved by another isolate is seen within a minute', async () => {
    await deletePrefix(env.STORE, 'meta/technicals-latest')
    forgetLatestTechnicals()
    expect(await latestTechnicalsDate(env.STORE, T)).toBeUndefined()
    // no table yet is not remembered: the first one is seen at once
    await putJson(env.STORE, LATEST_TECHNICALS_KEY, { date: '2026-11-19' })
    expect(await latestTechnicalsDate(env.STORE, T + 1)).toBe('2026-11-19')
    await putJson(env.STORE, LATEST_TECHNICALS_KEY, { date: '2026-11-20' }) // the job, in another isolate
    expect(await latestTechnicalsDate(env.STORE, T + 59_999)).toBe('2026-11-19')
    expect(await latestTechnicalsDate(env.STORE, T + 60_001)).toBe('2026-11-20')
    expect(await latestTechnicalsDate(env.STORE, T)).toBe('2026-11-20') // a clock that went back reads again
  })

  it('is seen at once when this isolate writes a newer table, and not moved back by an older one', async () => {
    forgetLatestTechnicals()
    await writeTechnicals(env.STORE, technicalsOf('2026-11-19', [], {}))
    expect(await latestTechnicalsDate(env.STORE)).toBe('2026-11-19')
    await writeTechnicals(env.STORE, technicalsOf('2026-11-20', [], {}))
    expect(await latestTechnicalsDate(env.STORE)).toBe('2026-11-20')
    await writeTechnicals(env.STORE, technicalsOf('2026-11-18', [], {})) // a backfill of an older day
    expect(await latestTechnicalsDate(env.STORE)).toBe('2026-11-20')
    forgetLatestTechnicals()
    expect(await latestTechnicalsDate(env.STORE)).toBe('2026-11-20')
  })
})
