// A counted call is settled from the outcome its answer carries (src/http/answer.ts): a route that
// answers 200 around it is refunded and logged, and under the emulator answered as a 500.
import { OpenAPIHono, z } from '@hono/zod-openapi'
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createApp } from '../src/app'
import { admittedRoute, registerAdmitted } from '../src/access/route'
import { KEY_LEASES } from '../src/access/key-lease'
import { answer } from '../src/http/answer'
import type { AppEnv } from '../src/http/context'
import { createServices } from '../src/services'
import { services as emulatorServices } from '../src/emulator/worker'
import { getJson, makeKey, resetWorld } from './helpers'

const COUNTED = { group: 'open', minTier: 'free', cost: 1, counted: true } as const
const Body = z.object({ ok: z.boolean(), data: z.array(z.number()) }).passthrough()
const routeAt = (path: string) =>
  admittedRoute(COUNTED, { method: 'get', path, responses: { 200: { description: 'rows', content: { 'application/json': { schema: Body } } } } })

/** The app with two counted routes: one answers through `answer`, one writes its JSON around it. */
function appWith(simulated: boolean): OpenAPIHono<AppEnv> {
  const services = simulated ? emulatorServices : createServices({ fetch: () => Promise.reject(new Error('no upstream')), simulated: false, budgets: {} })
  services.caches.of(KEY_LEASES).reportAfter(0)
  const app = createApp(services)
  registerAdmitted(app, routeAt('/v1/answered-rows'), (c) => answer(c, 'answered-rows', { ok: true, source: 'test', data: [1, 2, 3] }))
  registerAdmitted(app, routeAt('/v1/unanswered-rows'), (c) => c.json({ ok: true, data: [1, 2, 3] }, 200))
  return app
}

async function fetchFrom(app: OpenAPIHono<AppEnv>, path: string, key: string): Promise<Response> {
  const ctx = createExecutionContext()
  const res = await app.fetch(new Request(`http://127.0.0.1:8787${path}`, { headers: { authorization: `Bearer ${key}` } }), env, ctx)
  await res.arrayBuffer().catch(() => undefined)
  await waitOnExecutionContext(ctx)
  return res
}

describe('a counted answer carries its outcome', () => {
  let errors: ReturnType<typeof vi.spyOn>
  beforeEach(async () => {
    await resetWorld()
    errors = vi.spyOn(console, 'error').mockImplementation(() => undefined)
  })
  afterEach(() => errors.mockRestore())

  it('counts an answer made by answer(), with its rows', async () => {
    const key = await makeKey('standard')
    const res = await fetchFrom(appWith(true), '/v1/answered-rows', key)
    expect(res.status).toBe(200)
    await new Promise((r) => setTimeout(r, 50))
    expect((await getJson('/v1/usage', { headers: { authorization: `Bearer ${key}` } })).body.data.endpoints).toEqual({ 'answered-rows': { units: 1, calls: 1 } })
    expect(errors).not.toHaveBeenCalled()
  })

  it('under the emulator, answers a 200 without an outcome as a 500, refunded and logged', async () => {
    const key = await makeKey('standard')
    const res = await fetchFrom(appWith(true), '/v1/unanswered-rows', key)
    expect(res.status).toBe(500)
    await new Promise((r) => setTimeout(r, 50))
    expect((await getJson('/v1/usage', { headers: { authorization: `Bearer ${key}` } })).body.data.endpoints).toEqual({})
    expect(errors).toHaveBeenCalledWith('counted answer without an outcome', expect.stringContaining('/v1/unanswered-rows'))
  })

  it('elsewhere, keeps the 200 but refunds it and logs the error', async () => {
    const key = await makeKey('standard')
    const res = await fetchFrom(appWith(false), '/v1/unanswered-rows', key)
    expect(res.status).toBe(200)
    await new Promise((r) => setTimeout(r, 50))
    expect((await getJson('/v1/usage', { headers: { authorization: `Bearer ${key}` } })).body.data.endpoints).toEqual({})
    expect(errors).toHaveBeenCalledWith('counted answer without an outcome', expect.stringContaining('/v1/unanswered-rows'))
  })
})
