/**
 * `/__jobs/*`: operator routes that drive the history jobs (the backfill CLI calls them). Not part
 * of the public API and not in /openapi.json. Under the emulator entry they are open; in
 * production they exist only for `Authorization: Bearer <ADMIN_TOKEN>` (a secret), and answer 404
 * to everyone else, as if they were not there.
 *
 *   GET  /__jobs/backfill                 the backfill's state and chunk progress
 *   POST /__jobs/backfill/start           {from?, to?, restart?, chunkSize?}: plan (or resume) a backfill
 *   POST /__jobs/backfill/chunk           {index}: build one chunk of histories and stage its rows
 *   POST /__jobs/backfill/finish          assemble the next month's day blobs; the last call completes
 *   POST /__jobs/market-day               run the after-close job now (as the cron would)
 *   POST /__jobs/foreign-factors          {market: hk|us, live?}: build that market's factor table now
 *   POST /__jobs/industry-chain           {budget?}: one run of the industry-chain job
 *   POST /__jobs/playbooks                {maxMs?}: one run of the playbook backtest (call until status is done)
 */
import type { OpenAPIHono } from '@hono/zod-openapi'
import type { Context, MiddlewareHandler } from 'hono'
import type { AppEnv } from '../http/context'
import { notFound } from '../http/errors'
import { ValidationError } from '../http/validation'
import { backfillChunk, BackfillConflict, backfillStatus, finishBackfill, startBackfill } from '../jobs/backfill'
import { FOREIGN_MARKETS, foreignFactorsJob } from '../jobs/foreign-factors'
import { runIndustryChainJob } from '../jobs/industry-chain'
import { marketDayJob } from '../jobs/market-day'
import { playbookBacktestJob } from '../jobs/playbook-backtest'
import type { Services } from '../services/types'

/** SHA-256 digests compared in constant time, so the token's length and prefix do not leak. */
async function sameSecret(a: string, b: string): Promise<boolean> {
  const enc = new TextEncoder()
  const [x, y] = await Promise.all([crypto.subtle.digest('SHA-256', enc.encode(a)), crypto.subtle.digest('SHA-256', enc.encode(b))])
  return crypto.subtle.timingSafeEqual(x, y)
}

/** Open under the emulator; else only with the admin token, 404 otherwise. */
function adminOnly(services: Services): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (services.simulated) return next()
    const token = c.env.ADMIN_TOKEN
    const given = /^Bearer (.+)$/.exec(c.req.header('authorization') ?? '')?.[1]
    if (!token || !given || !(await sameSecret(given, token))) return notFound(c)
    return next()
  }
}

async function body(c: Context<AppEnv>): Promise<Record<string, unknown>> {
  const text = await c.req.text()
  if (!text.trim()) return {}
  try {
    const v = JSON.parse(text)
    if (v && typeof v === 'object' && !Array.isArray(v)) return v
  } catch {
    // fall through to the 422
  }
  throw new ValidationError([{ type: 'json_invalid', loc: ['body'], msg: 'body must be a JSON object', input: text.slice(0, 200) }])
}

const str = (v: unknown) => (v === undefined || v === null || v === '' ? undefined : (v as string))

/** Runs a step; a step that cannot run now is 409, an upstream or store failure 502 (retry later). */
async function step(c: Context<AppEnv>, fn: () => Promise<unknown>): Promise<Response> {
  try {
    return c.json(await fn())
  } catch (e) {
    if (e instanceof ValidationError) throw e
    if (e instanceof BackfillConflict) return c.json({ error: e.message, code: 'CONFLICT' }, 409)
    const msg = e instanceof Error ? e.message : String(e)
    console.error(`${c.req.path}: ${msg}`)
    return c.json({ error: msg, code: 'STEP_FAILED' }, 502)
  }
}

/** Registers the admin routes. */
export function registerAdminJobs(app: OpenAPIHono<AppEnv>, services: Services) {
  app.use('/__jobs/*', adminOnly(services))
  app.get('/__jobs/backfill', (c) => step(c, async () => (await backfillStatus({ env: c.env, services })) ?? { state: null }))
  app.post('/__jobs/backfill/start', async (c) => {
    const b = await body(c)
    return step(c, () => startBackfill({ env: c.env, services }, { from: str(b.from), to: str(b.to), restart: b.restart === true, chunkSize: b.chunkSize === undefined ? undefined : Number(b.chunkSize) || undefined }))
  })
  app.post('/__jobs/backfill/chunk', async (c) => {
    const b = await body(c)
    return step(c, () => backfillChunk({ env: c.env, services }, Number(b.index)))
  })
  app.post('/__jobs/backfill/finish', (c) => step(c, () => finishBackfill({ env: c.env, services })))
  app.post('/__jobs/market-day', async (c) => {
    const b = await body(c)
    const chunk = b.chunk === undefined ? undefined : Number(b.chunk)
    return step(c, () => marketDayJob(undefined, c.env, c.executionCtx, services, { chunk }))
  })
  app.post('/__jobs/foreign-factors', async (c) => {
    const b = await body(c)
    const market = FOREIGN_MARKETS.find((m) => m === b.market)
    if (!market) throw new ValidationError([{ type: 'value_error', loc: ['body', 'market'], msg: `market must be one of ${FOREIGN_MARKETS.join(', ')}`, input: b.market ?? null }])
    // The job records its own failure (status 'error'); a failed run answers 502 so a caller retries.
    const run = await foreignFactorsJob(c.env, services, market, { live: b.live === true })
    return c.json(run, run.status === 'error' ? 502 : 200)
  })
  app.post('/__jobs/industry-chain', async (c) => {
    const b = await body(c)
    const budget = b.budget === undefined ? undefined : Number(b.budget) || undefined
    return step(c, async () => {
      const themes = (await services.store.chainThemes(c)).list
      return runIndustryChainJob({ store: services.store.bucket(c), ctx: services.channelContext, now: services.now, themes, budget })
    })
  })
  app.post('/__jobs/playbooks', async (c) => {
    const b = await body(c)
    const maxMs = b.maxMs === undefined ? undefined : Number(b.maxMs) || undefined
    return step(c, () => playbookBacktestJob(c.env, services, { maxMs }))
  })
}
