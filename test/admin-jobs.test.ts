import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../src/app'
import { registerAdminJobs } from '../src/routes/admin-jobs'
import { readHistory } from '../src/store/history'
import { resetWorld } from './helpers'
import { post, services, storeJson } from './store-app'

beforeAll(() => resetWorld('2026-11-21T10:00:00+08:00'))

describe('/__jobs admin routes under the emulator', () => {
  it('report no backfill and refuse steps before start', async () => {
    expect((await storeJson('/__jobs/backfill')).body).toEqual({ state: null })
    expect(await post('/__jobs/backfill/chunk', { index: 0 })).toMatchObject({ status: 409, body: { code: 'CONFLICT' } })
    expect(await post('/__jobs/backfill/finish')).toMatchObject({ status: 409, body: { error: expect.stringContaining('call start first') } })
  })

  it('validate the body', async () => {
    const bad = await post('/__jobs/backfill/start', { from: '2015-01-05' })
    expect(bad.status).toBe(422)
    expect(bad.body.detail[0]).toMatchObject({ loc: ['body', 'from'], msg: expect.stringContaining('2016-08-08') })
    const notJson = await storeJson('/__jobs/backfill/start', { method: 'POST', body: '{nope' })
    expect(notJson).toMatchObject({ status: 422, body: { detail: [{ type: 'json_invalid' }] } })
    expect((await post('/__jobs/backfill/start', { to: '2026-11-23' })).body.detail[0].msg).toMatch(/settled/)
  })

  it('drive a backfill against the emulator’s upstreams: start lists the universe, a chunk builds histories', async () => {
    const start = await post('/__jobs/backfill/start', { from: '2026-11-19', to: '2026-11-20', chunkSize: 3 })
    expect(start.status).toBe(200)
    expect(start.body.state).toMatchObject({ from: '2026-11-19', to: '2026-11-20', chunkSize: 3, phase: 'chunks', through: '2026-11-20' })
    expect(start.body.state.codes).toHaveLength(5572)
    expect(start.body.pending).toHaveLength(Math.ceil(5572 / 3))
    const chunk = await post('/__jobs/backfill/chunk', { index: 1 })
    expect(chunk.body).toMatchObject({ index: 1, stocks: 3, histories: 3, rows: 6 })
    const h = await readHistory(env.STORE, start.body.state.codes[3])
    expect(h?.last).toBe('2026-11-20')
    expect((await storeJson('/__jobs/backfill')).body.pending[1]).toBe(2)
    expect((await post('/__jobs/backfill/finish')).status).toBe(409)
    expect((await post('/__jobs/backfill/chunk', { index: 99_999 })).status).toBe(422)
  })

  it('run the after-close job on demand (skipped on a Saturday)', async () => {
    const r = await post('/__jobs/market-day')
    expect(r).toMatchObject({ status: 200, body: { status: 'skipped', reason: '2026-11-21 is not a trading day' } })
  })
})

describe('/__jobs admin routes in production', () => {
  const prod = { ...services, simulated: false }
  const app = createApp(prod)
  registerAdminJobs(app, prod)
  const call = async (auth?: string, token?: string) => {
    const ctx = createExecutionContext()
    const res = await app.fetch(new Request('http://x/__jobs/backfill', { headers: auth ? { authorization: auth } : {} }), { ...env, ADMIN_TOKEN: token }, ctx)
    await waitOnExecutionContext(ctx)
    return res.status
  }

  it('are hidden (404) without the admin token, wrong or unset', async () => {
    expect(await call()).toBe(404)
    expect(await call('Bearer nope', 'sekrit')).toBe(404)
    expect(await call('Bearer sekrit')).toBe(404)
    expect(await call('sekrit', 'sekrit')).toBe(404)
  })

  it('answer with the token', async () => {
    expect(await call('Bearer sekrit', 'sekrit')).toBe(200)
  })
})
