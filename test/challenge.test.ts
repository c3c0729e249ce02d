import { OpenAPIHono } from '@hono/zod-openapi'
import { beforeEach, describe, expect, it } from 'vitest'
import { DEV_POW_SECRET, POW, verifyProof } from '../src/access/pow'
import { solveChallenge } from '../src/access/pow-solver'
import { requestContext, type AppEnv } from '../src/http/context'
import { registerChallenge } from '../src/routes/challenge'
import { createServices } from '../src/services'
import { ANONYMOUS, getJson, resetWorld, SESSION_CLOCK } from './helpers'

const CLOCK = Date.parse(SESSION_CLOCK)

describe('GET /v1/challenge', () => {
  beforeEach(() => resetWorld())

  it('answers the documented body in the standard envelope, not cacheable', async () => {
    const { status, body, headers } = await getJson('/v1/challenge', ANONYMOUS)
    expect(status).toBe(200)
    expect(body).toMatchObject({ ok: true, endpoint: 'challenge', tier: 'free', source: 'service' })
    expect(headers.get('cache-control')).toBe('no-store')

    const doc = (await getJson('/openapi.json')).body
    const documented = Object.keys(doc.components.schemas.Challenge.properties).sort()
    expect(Object.keys(body.data).sort()).toEqual(documented)
    expect(body.data).toMatchObject({
      difficulty: POW.defaultDifficulty,
      min_difficulty: POW.minAcceptedDifficulty,
      raises_allowance: true,
      raises_to_per_minute: 60,
      algorithm: 'sha256',
      header: 'X-PoW',
      format: '<challenge>.<nonce>',
    })
    expect(body.data.challenge).toMatch(/^[\w~-]+$/)
  })

  it('expires in the future by the service clock', async () => {
    const { body } = await getJson('/v1/challenge', ANONYMOUS)
    const expiresAt = Date.parse(body.data.expires_at)
    expect(expiresAt).toBeGreaterThan(CLOCK)
    expect(expiresAt - CLOCK).toBe(POW.ttlSeconds * 1000)
    expect(body.data.expires_in).toBe(POW.ttlSeconds)
  })

  it.each([
    ['', POW.defaultDifficulty, true],
    ['?difficulty=0', POW.defaultDifficulty, true],
    ['?difficulty=20', 20, true],
    ['?difficulty=24', 24, true],
    ['?difficulty=4', 4, false],
  ])('difficulty %j → %i (raises allowance: %s)', async (qs, difficulty, raises) => {
    const { status, body } = await getJson('/v1/challenge' + qs, ANONYMOUS)
    expect(status).toBe(200)
    expect(body.data).toMatchObject({ difficulty, raises_allowance: raises })
  })

  it.each(['-1', '25', '2.5', 'abc', '1e9'])('422 naming difficulty for difficulty=%s', async (v) => {
    const { status, body } = await getJson(`/v1/challenge?difficulty=${v}`, ANONYMOUS)
    expect(status).toBe(422)
    expect(body.detail[0].loc).toEqual(['query', 'difficulty'])
  })

  it('issues a challenge bound to the caller IP that the verifier accepts once solved', async () => {
    const ip = '198.51.100.23'
    const { body } = await getJson('/v1/challenge?difficulty=12', { ...ANONYMOUS, headers: { 'cf-connecting-ip': ip } })
    const header = await solveChallenge(body.data.challenge, body.data.difficulty)
    const lenient = { minAcceptedDifficulty: 12 }
    expect(await verifyProof(DEV_POW_SECRET, header, ip, CLOCK, lenient)).toMatchObject({ ok: true, difficulty: 12 })
    expect(await verifyProof(DEV_POW_SECRET, header, '198.51.100.24', CLOCK, lenient)).toEqual({ ok: false, reason: 'wrong-ip' })
    expect(await verifyProof(DEV_POW_SECRET, header, ip, Date.parse(body.data.expires_at), lenient)).toEqual({ ok: false, reason: 'expired' })
  })

  it('is not counted: asking repeatedly never uses up the anonymous allowance', async () => {
    const ip = '198.51.100.99'
    for (let i = 0; i < 8; i++) {
      const { status } = await getJson('/v1/challenge', { ...ANONYMOUS, headers: { 'cf-connecting-ip': ip } })
      expect(status).toBe(200)
    }
  })

  it('is documented: free, cost 0, difficulty 0..24, 503 when proof-of-work is off', async () => {
    const op = (await getJson('/openapi.json')).body.paths['/v1/challenge'].get
    expect(op).toMatchObject({ 'x-min-tier': 'free', 'x-cost': 0 })
    expect(op.parameters).toEqual([
      expect.objectContaining({ name: 'difficulty', schema: expect.objectContaining({ type: 'integer', minimum: 0, maximum: 24 }) }),
      expect.objectContaining({ name: 'format', schema: expect.objectContaining({ enum: ['json'] }) }),
    ])
    expect(op.responses['503']).toBeTruthy()
  })
})

describe('GET /v1/challenge without a secret outside the emulator', () => {
  it('answers 503 POW_DISABLED', async () => {
    const services = createServices({ fetch, simulated: false })
    const app = new OpenAPIHono<AppEnv>()
    app.use('*', requestContext(services))
    registerChallenge(app, services)
    const res = await app.request('/v1/challenge', {}, {})
    expect(res.status).toBe(503)
    expect(await res.json()).toMatchObject({ code: 'POW_DISABLED' })
  })

  it('uses POW_SECRET when it is set', async () => {
    const services = createServices({ fetch, simulated: false })
    const app = new OpenAPIHono<AppEnv>()
    app.use('*', requestContext(services))
    registerChallenge(app, services)
    const res = await app.request('/v1/challenge?difficulty=8', {}, { POW_SECRET: 'prod-secret' })
    const { data } = (await res.json()) as { data: { challenge: string; expires_at: string } }
    const header = await solveChallenge(data.challenge, 8)
    const now = Date.parse(data.expires_at) - 1000
    expect(await verifyProof('prod-secret', header, '127.0.0.1', now, { minAcceptedDifficulty: 8 })).toMatchObject({ ok: true })
    expect(await verifyProof(DEV_POW_SECRET, header, '127.0.0.1', now, { minAcceptedDifficulty: 8 })).toEqual({ ok: false, reason: 'forged' })
  })
})
