/**
 * Offline entry (npm start without internet, tests, benchmarks): the same application with every
 * upstream request answered in-process by the emulator, the emulator's clock as the service
 * clock, and `source` labelled `emulator:<channel>`. Adds the `/__emulator/*` control routes.
 */
import '../env'
import { createApp } from '../app'
import { KEY_LEASES } from '../access/key-lease'
import { UPSTREAM_BUDGETS } from '../data/upstream-budgets'
import { scheduledHandler } from '../jobs'
import { createServices, locationLines } from '../services'
import { setIsolateServices } from '../services/isolate'
import { STREAM_DEFAULTS, streamTuning } from '../runtime/stream-tuning'
import { clock, createEmulatorFetch } from './control'
import { withHangs } from './hang'
import { market } from './market'
import { registerBenchRoutes } from './bench-routes'
import { emulatorRoutes } from './routes'

export { KeyGuard } from '../access/key-guard'
export { AnonGuard } from '../access/anon-guard'
export { HostBudget } from '../runtime/host-budget-object'
export { StreamShard } from '../features/stream/stream-shard'

export const services = createServices({
  fetch: createEmulatorFetch(market),
  now: () => clock.now(),
  sourcePrefix: 'emulator:',
  simulated: true,
  // No upstream budget unless a test or the bench sets one (PUT /__emulator/budgets): the emulator is not a host to spare.
  budgets: {},
})
const app = createApp(services)
// The stream shards of this isolate poll through the same services (src/services/isolate.ts).
setIsolateServices(services)
// Usage from leased slices is sent as each call ends (src/access/key-lease.ts: tests wait for it).
services.caches.of(KEY_LEASES).reportAfter(0)

// Forget what this isolate remembers between requests (Services.reset), so a test starts from the
// channel table's order and fresh data.
app.delete('/__emulator/router', (c) => {
  services.reset()
  return c.json({ ok: true })
})
// Forget the shared live lines alone (src/channels/live-lines.ts), as if every cadence had passed:
// a test that makes a host fail then sees the next call ask it, at the same instant of the market.
// `?own=1` forgets this isolate's lines alone, as a new isolate of the location would start.
app.delete('/__emulator/shared-lines', (c) => {
  if (c.req.query('own')) services.channelContext.lines?.forgetOwn()
  else services.channelContext.lines?.clear()
  return c.json({ ok: true })
})
// Share the lines across isolates through the Cache API as production does (`{"cache": true}`), or not
// (the default here: the tests' isolate is alone, and a cache read per miss would only slow them).
// Each switch-on starts keys of its own, so a test never reads another's lines.
app.put('/__emulator/shared-lines', async (c) => {
  const body = (await c.req.json().catch(() => null)) as { cache?: unknown } | null
  if (typeof body?.cache !== 'boolean') return c.json({ error: 'cache must be true or false', code: 'BAD_REQUEST' }, 422)
  const lines = services.channelContext.lines
  if (lines) lines.shared = body.cache ? locationLines(crypto.randomUUID()) : undefined
  return c.json({ ok: true, cache: body.cache })
})
// The upstream budgets (src/channels/budget/host-budget.ts): `{ "eastmoney": 5 }` sets them (families
// not named have none), `?defaults=1` sets production's, DELETE removes them all.
app.put('/__emulator/budgets', async (c) => {
  const limits = (c.req.query('defaults') ? UPSTREAM_BUDGETS : await c.req.json().catch(() => null)) as Record<string, unknown> | null
  if (!limits || typeof limits !== 'object' || Object.values(limits).some((v) => typeof v !== 'number' || !(v >= 0))) {
    return c.json({ error: 'a JSON object of requests per minute by family (non-negative numbers)', code: 'BAD_REQUEST' }, 422)
  }
  services.channelContext.budgets?.setLimits(limits as Record<string, number>)
  return c.json({ ok: true, budgets: limits })
})
app.delete('/__emulator/budgets', (c) => {
  services.channelContext.budgets?.setLimits({})
  return c.json({ ok: true })
})
app.route('/', emulatorRoutes)
// The request deadline (src/http/deadline.ts): tests shorten it, DELETE restores the default.
const defaultDeadlineMs = services.deadlineMs
app.put('/__emulator/deadline', async (c) => {
  const ms = Number(((await c.req.json().catch(() => ({}))) as { ms?: unknown }).ms)
  if (!Number.isInteger(ms) || ms < 1 || ms > 600_000) return c.json({ error: 'ms must be an integer 1–600000', code: 'BAD_REQUEST' }, 422)
  services.deadlineMs = ms
  return c.json({ deadline_ms: services.deadlineMs })
})
app.delete('/__emulator/deadline', (c) => {
  services.deadlineMs = defaultDeadlineMs
  return c.json({ deadline_ms: services.deadlineMs })
})
// The channels' per-request timeout (4 s): the fault matrix shortens it so that a timeout costs milliseconds.
const defaultTimeoutMs = services.channelContext.timeoutMs
app.put('/__emulator/channel-timeout', async (c) => {
  const ms = Number(((await c.req.json().catch(() => ({}))) as { ms?: unknown }).ms)
  if (!Number.isInteger(ms) || ms < 1 || ms > 60_000) return c.json({ error: 'ms must be an integer 1–60000', code: 'BAD_REQUEST' }, 422)
  services.channelContext.timeoutMs = ms
  return c.json({ timeout_ms: ms })
})
app.delete('/__emulator/channel-timeout', (c) => {
  services.channelContext.timeoutMs = defaultTimeoutMs
  return c.json({ timeout_ms: defaultTimeoutMs })
})
// Push quotes' timings (src/runtime/stream-tuning.ts), in real ms: `{cadence_ms, heartbeat_ms,
// recheck_ms, slow_bytes, ack_window, phase_check_ms}` (each optional) so a test sees several cadences in a second; the market's
// clock stays the emulator's. DELETE restores production's.
app.put('/__emulator/stream', async (c) => {
  const b = (await c.req.json().catch(() => ({}))) as Record<string, unknown>
  const fields = { cadence_ms: 'cadenceMs', heartbeat_ms: 'heartbeatMs', recheck_ms: 'recheckMs', slow_bytes: 'slowBytes', ack_window: 'ackWindow', phase_check_ms: 'phaseCheckMs' } as const
  for (const [k, field] of Object.entries(fields)) {
    if (b[k] === undefined) continue
    const v = Number(b[k])
    if (!Number.isInteger(v) || v < 1 || v > 600_000) return c.json({ error: `${k} must be an integer 1–600000`, code: 'BAD_REQUEST' }, 422)
    streamTuning[field] = v
  }
  return c.json({ stream: streamTuning })
})
app.delete('/__emulator/stream', (c) => {
  Object.assign(streamTuning, STREAM_DEFAULTS)
  return c.json({ stream: streamTuning })
})
registerBenchRoutes(app)

export default {
  // Bindings a test made hang (PUT /__emulator/hang) are swapped in here, under every route.
  fetch: (request: Request, env: Env, ctx: ExecutionContext) => app.fetch(request, withHangs(env), ctx),
  scheduled: scheduledHandler(services),
} satisfies ExportedHandler<Env>
