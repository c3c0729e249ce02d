import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { call, fault, getJson, resetWorld, upstreamRequests } from './helpers'

/**
 * A slow upstream is a normal day, not an outage (docs/architecture.md, "Slow upstreams"): with Eastmoney answering every request
 * after 1 s, the whole-market views give up its 56-page walk after the first page (it could not end
 * in time) and count Tencent's rank list instead, well inside the request deadline.
 */
describe('Eastmoney answering every request after 1 s', () => {
  beforeAll(async () => {
    await resetWorld()
    // Tencent's list as a real host serves it, a page in well under a second: the emulator's first
    // ranking of a whole market at a new instant costs seconds of this machine's CPU, so it is made
    // once here (the emulator keeps its answers per clock); each case then clears our own memory.
    await fault('eastmoney', 'http')
    await getJson('/v1/changedist')
  }, 60_000)

  beforeEach(async () => {
    await call('/__emulator/router', { method: 'DELETE' }).then((r) => r.text())
    await fault('eastmoney', 'slow', { ms: 1_000 })
  })

  it.each(['/v1/changedist', '/v1/market-overview?type=summary', '/v1/market-overview?type=trade'])('%s answers with data from Tencent, after one Eastmoney page', async (path) => {
    const before = await upstreamRequests()
    const { status, body } = await getJson(path)
    expect(status).toBe(200)
    expect(body.ok, JSON.stringify(body).slice(0, 400)).toBe(true)
    expect(body.elapsed_ms).toBeLessThan(5_000)
    const after = await upstreamRequests()
    // The walk stopped early: a 1 s page means 11 rounds five wide, 11 s, past the 10 s budget, so it asks for at most
    // the first page and one round before giving up (and the summary's two index lines).
    expect(after.eastmoney - before.eastmoney).toBeLessThanOrEqual(path.includes('summary') ? 8 : 6)
    expect(after.tencent - before.tencent).toBeGreaterThan(0)
  }, 30_000)

  it.each(['interval', 'margin', 'rotation', 'updown'])('market-overview?type=%s answers with data', async (type) => {
    const { status, body } = await getJson(`/v1/market-overview?type=${type}`)
    expect(status).toBe(200)
    expect(body.ok, JSON.stringify(body).slice(0, 300)).toBe(true)
    // Two 1 s pages in a row for some types: bounded well inside the 15 s request deadline, with room for a loaded machine.
    expect(body.elapsed_ms).toBeLessThan(10_000)
  }, 30_000)
})

describe('an outage ending', () => {
  beforeEach(() => resetWorld())

  it('answers quotes at once when Eastmoney and Tencent come back while Sina has nothing, not after the breakers cool down', async () => {
    await fault('eastmoney', 'http')
    await fault('tencent', 'http')
    await fault('sina', 'empty')
    // Enough failing calls to open both circuits.
    for (let i = 0; i < 4; i++) expect((await getJson(`/v1/quote?code=sz00000${i + 1}`)).body.ok).toBe(false)
    await call('/__emulator/faults/eastmoney', { method: 'DELETE' }).then((r) => r.text())
    await call('/__emulator/faults/tencent', { method: 'DELETE' }).then((r) => r.text())
    const { body } = await getJson('/v1/quote?code=sh600519')
    expect(body.ok).toBe(true)
  })
})
