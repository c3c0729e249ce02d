import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { IsolateCaches } from '../runtime/isolate-caches'
import type { Services } from '../services/types'
import type { AppEnv } from './context'
import { envelope, type EnvelopeBody } from './envelope'
import { SHARED_ENVELOPES, sharedEnvelopeAnswer } from './shared-envelope'

/** An app answering `answer` both ways: as the routes did (`/json`) and from the shared text (`/shared`). */
function appFor(answer: EnvelopeBody, made: { count: number }, caches = new IsolateCaches()) {
  const app = new Hono<AppEnv>()
  app.use('*', async (c, next) => {
    c.set('services', { caches } as unknown as Services)
    c.set('startedAt', performance.now())
    c.set('tier', 'pro')
    await next()
  })
  app.get('/json', (c) => c.json(envelope(c, 'hot', { ...answer, data: (answer.data as unknown[]).slice(0, Number(c.req.query('limit'))) }), 200))
  app.get('/shared', (c) => {
    const limit = Number(c.req.query('limit'))
    return sharedEnvelopeAnswer(c, 'hot', { ok: answer.ok, rows: 0 }, answer, String(limit), () => {
      made.count++
      return { ...answer, data: (answer.data as unknown[]).slice(0, limit) }
    })
  })
  return app
}

/** The answer's text with its elapsed time (which differs from call to call) set to 0. */
const atZero = (text: string) => text.replace(/"elapsed_ms":\d+/, '"elapsed_ms":0')

describe('sharedEnvelopeAnswer', () => {
  const rows = [{ rank: 1, name: '贵州茅台', last: 1520, change_pct: null }, { rank: 2, name: 'a "quoted" name', last: 4.012, change_pct: -0.3 }]

  it('answers the bytes and headers of c.json(envelope(…)), extras in the answer\'s order after data', async () => {
    const answers: EnvelopeBody[] = [
      { ok: true, source: 'emulator:eastmoney', data: rows, as_of: '2026-11-20T10:29:57+08:00', notice: 'US list unavailable' },
      // A failure body names its code before source and data: the envelope still puts source and data first.
      { ok: false, code: 'UPSTREAM_UNAVAILABLE', error: 'eastmoney: HTTP 502', source: 'none', data: [] },
      { ok: true, source: 'multi', data: rows, skipped: undefined },
    ]
    for (const answer of answers) {
      const app = appFor(answer, { count: 0 })
      for (const limit of [1, 30]) {
        const [json, shared] = await Promise.all([app.request(`/json?limit=${limit}`), app.request(`/shared?limit=${limit}`)])
        expect(atZero(await shared.text())).toBe(atZero(await json.text()))
        expect([...shared.headers]).toEqual([...json.headers])
        expect(shared.status).toBe(200)
      }
    }
  })

  it('serialises an answer once per variant, and again after the caches are cleared', async () => {
    const made = { count: 0 }
    const caches = new IsolateCaches()
    const app = appFor({ ok: true, source: 'multi', data: rows }, made, caches)
    for (let i = 0; i < 3; i++) await app.request('/shared?limit=1')
    expect(made.count).toBe(1)
    expect(JSON.parse(await (await app.request('/shared?limit=2')).text()).data).toHaveLength(2)
    expect(made.count).toBe(2)
    caches.clear()
    await app.request('/shared?limit=1')
    expect(made.count).toBe(3)
    expect(caches.names()).toContain(SHARED_ENVELOPES.name)
  })

  it('writes each caller\'s own tier and elapsed time', async () => {
    const app = appFor({ ok: true, source: 'multi', data: rows }, { count: 0 })
    const body = JSON.parse(await (await app.request('/shared?limit=1')).text())
    expect(body).toMatchObject({ ok: true, endpoint: 'hot', tier: 'pro', source: 'multi' })
    expect(Number.isInteger(body.elapsed_ms)).toBe(true)
  })
})
