import { z, type OpenAPIHono } from '@hono/zod-openapi'
import type { Context } from 'hono'
import type { KeyGuard } from '../access/key-guard'
import { admittedRoute, registerAdmitted } from '../access/route'
import { STREAM_LIMITS, TIERS, type AccessPolicy } from '../access/tiers'
import { parseStreamCodes } from '../features/stream/codes'
import { CLOSE_CODES, Relay, sseSink, webSocketSink } from '../features/stream/relay'
import { ApiError } from '../http/api-error'
import type { AppEnv } from '../http/context'
import { answerResponse } from '../http/answer'
import { COMMON_ERRORS, ErrorSchema, TIME_FORMS } from '../http/envelope-schema'
import { queryIssue, ValidationError } from '../http/validation'
import { STREAM_DEFAULTS } from '../runtime/stream-tuning'

const StreamQuery = z.object({
  codes: z.string({ error: 'codes is required' }).openapi({
    description: 'Comma-separated A-share codes with market prefix (sh, sz, bj: stocks, indexes, ETFs, bonds); at most the tier\'s symbols per connection',
    example: 'sh600519,sz000001',
  }),
})

const S = z.string()
const heartbeatS = STREAM_DEFAULTS.heartbeatMs / 1000
const QuoteEvent = z
  .object({
    code: S.openapi({ example: 'sh600519' }),
    date: S, open: S, last: S, high: S, low: S, volume: S, amount: S, turnover: S,
    as_of: S.openapi({ description: `The line's time stamp, an instant (Beijing; the session date when the line carries no time). ${TIME_FORMS}`, example: '2026-11-20T10:30:03+08:00' }),
    source: S.openapi({ description: 'The channel that answered (the same failover as /v1/quote)', example: 'tencent' }),
  })
  .openapi('StreamQuoteEvent', { description: '`quote`: /v1/quote\'s latest bar of one code (8 strings), sent first for every code, then whenever a field changes' })
const StatusEvent = z
  .object({
    market: z.literal('cn'),
    phase: z.enum(['auction', 'session', 'lunch', 'closed']),
    next_change: S.openapi({ description: 'When the phase next changes, an instant (ISO 8601 with its offset, Beijing)', example: '2026-11-20T11:30:00+08:00' }),
  })
  .openapi('StreamStatusEvent', { description: '`status`: the A-share market\'s phase, sent on connecting and at every change' })
const ErrorEvent = z
  .object({ code: S.openapi({ example: 'SLOW_CONSUMER' }), error: S })
  .openapi('StreamErrorEvent', {
    description:
      '`error`: a code of the API\'s vocabulary. KEY_INVALID (key revoked), SLOW_CONSUMER (an SSE client too far behind, a WebSocket client not acknowledging heartbeats) and UPSTREAM_UNAVAILABLE (no quote object reachable) end the stream; ' +
      'BAD_REQUEST (a bad WebSocket message: subscribe, unsubscribe or ack) and UPSTREAM_UNAVAILABLE / NO_DATA of one poll do not',
  })
const HeartbeatEvent = z
  .object({
    at: S.openapi({ description: 'Service time, an instant (ISO 8601 with its offset, Beijing)', example: '2026-11-20T10:30:20+08:00' }),
    seq: z.number().int().positive().openapi({ description: 'This connection\'s heartbeat number: 1, 2, 3, … A WebSocket client answers each with the text message `{"ack":<seq>}`; an SSE client need not', example: 1 }),
  })
  .openapi('StreamHeartbeatEvent', { description: `\`heartbeat\`: every ${heartbeatS} s` })
const StreamEvent = z
  .object({ event: z.enum(['quote', 'status', 'error', 'heartbeat']), data: z.union([QuoteEvent, StatusEvent, ErrorEvent, HeartbeatEvent]) })
  .openapi('StreamEvent', { description: 'One event. Over SSE: `event: <event>` and `data: <data as JSON>` lines; over WebSocket: this object as one JSON text message.' })

const ackText =
  `WebSocket clients acknowledge every heartbeat: answer each with the text message \`{"ack":<seq>}\` (its \`seq\`; messages are ordered, so an ack proves everything sent before that heartbeat was read). ` +
  `When heartbeat n is due and neither heartbeat n−${STREAM_DEFAULTS.ackWindow} nor a later one has been acknowledged (${STREAM_DEFAULTS.ackWindow} intervals of silence, ${STREAM_DEFAULTS.ackWindow * heartbeatS} s), the stream ends with SLOW_CONSUMER and close code ${CLOSE_CODES.SLOW_CONSUMER}. ` +
  'An ack that is not a positive integer, or names a heartbeat not yet sent, gets a BAD_REQUEST `error` event, does not count, and leaves the stream open. A client that acknowledges is never dropped as slow. '

const limitsText = TIERS.filter((t) => t !== 'free')
  .map((t) => `${t} ${STREAM_LIMITS[t].connections} connections × ${STREAM_LIMITS[t].symbols} symbols`)
  .join(', ')

/** Opening a stream is one counted call; its minutes are usage, outside the minute limit (docs/access.md "Streams"). */
const POLICY: AccessPolicy = { group: 'keyed', minTier: 'trial', cost: 1, counted: true }

const wantsWebSocket = (c: Context<AppEnv>) => c.req.header('upgrade')?.toLowerCase() === 'websocket'
const wantsSse = (c: Context<AppEnv>) => (c.req.header('accept') ?? '').toLowerCase().includes('text/event-stream')

/** The codes of a valid query (throws the 422: bad codes, no transport asked for). */
function planCodes(c: Context<AppEnv>, q: z.output<typeof StreamQuery>): string[] {
  const { codes, errors } = parseStreamCodes(q.codes)
  const issues = errors.map((e) => queryIssue('codes', e, q.codes))
  if (!codes.length && !errors.length) issues.push(queryIssue('codes', 'at least one code is required, e.g. sh600519', q.codes))
  if (!wantsWebSocket(c) && !wantsSse(c)) {
    issues.push({ type: 'missing', loc: ['header', 'accept'], msg: 'a stream needs `Upgrade: websocket` (WebSocket) or `Accept: text/event-stream` (Server-Sent Events)', input: c.req.header('accept') ?? null })
  }
  if (issues.length) throw new ValidationError(issues)
  return codes
}

const route = admittedRoute(
  POLICY,
  {
    method: 'get',
    path: '/v1/stream',
    operationId: 'stream',
    tags: ['Pro'],
    summary: 'Push quotes: Server-Sent Events or WebSocket',
    description:
      'Live quotes pushed as they change, instead of polling /v1/quote. `Accept: text/event-stream` answers Server-Sent Events (`EventSource`, `curl -N`); ' +
      '`Upgrade: websocket` a WebSocket, which also takes `{"subscribe":[codes]}` and `{"unsubscribe":[codes]}` messages and must acknowledge heartbeats (below). Browsers cannot set headers on either: `?key=` works. ' +
      'Events (schema `StreamEvent`): `quote` (the current state of every code first, then each change, at most once per 3 s source cadence while the market moves), ' +
      `\`status\` (the market's phase: auction, session, lunch, closed, and the next change), \`error\`, \`heartbeat\` (every ${heartbeatS} s, numbered \`seq\` 1, 2, 3, … per connection). ` +
      'Outside sessions a stream sends the last session\'s state once, then `status`, then only heartbeats. ' +
      `Limits per key (open connections across the service) and per connection (symbols): ${limitsText}; anonymous callers none. ` +
      'Opening a stream is one counted call (the minute limit applies); while open it records one usage unit per started minute, not against the minute limit (`/v1/usage` `stream`). ' +
      `The key is re-read every ${STREAM_DEFAULTS.recheckMs / 1000} s: a revoked key's streams end within that with a KEY_INVALID error. ` +
      `Slow clients are dropped, never buffered without bound: an SSE client more than ${STREAM_DEFAULTS.slowBytes / 1024} KB behind (bytes sent, not yet read) gets SLOW_CONSUMER. ` +
      ackText +
      `WebSocket close codes: ${Object.entries(CLOSE_CODES).map(([k, v]) => `${v} ${k}`).join(', ')}, 1000 normal.`,
    request: { query: StreamQuery },
    'x-stream-limits': Object.fromEntries(TIERS.filter((t) => t !== 'free').map((t) => [t, STREAM_LIMITS[t]])),
    responses: {
      101: { description: 'WebSocket (with `Upgrade: websocket`): each message one `StreamEvent` as JSON. The client sends text messages `{"subscribe":[codes]}`, `{"unsubscribe":[codes]}`, and `{"ack":<seq>}` for every heartbeat' },
      200: { description: 'Server-Sent Events (with `Accept: text/event-stream`)', content: { 'text/event-stream': { schema: StreamEvent } } },
      429: { description: 'STREAM_LIMIT (as many connections open as the tier allows), or RATE_LIMITED (the opening call, per-minute window)', content: { 'application/json': { schema: ErrorSchema } } },
      ...COMMON_ERRORS,
      422: { description: 'A bad code, more symbols than the tier allows per connection, or neither `Accept: text/event-stream` nor `Upgrade: websocket`', content: { 'application/json': { schema: z.object({ detail: z.array(z.object({ type: S, loc: z.array(S), msg: S, input: z.unknown() })) }) } } },
    },
  },
  {
    check: (c, q) => void planCodes(c, q),
    tierCheck: (c, q) => {
      const tier = c.get('tier')
      const n = parseStreamCodes(q.codes).codes.length
      const limit = STREAM_LIMITS[tier].symbols
      if (n > limit) throw new ValidationError([queryIssue('codes', `a ${tier} connection may hold at most ${limit} symbols, got ${n}`, q.codes, 'too_big')])
    },
  }
)

/** A connection opened is the call: one unit, no rows. */
const STREAM_OUTCOME = { ok: true, rows: 0 }

/** GET /v1/stream */
export function registerStream(app: OpenAPIHono<AppEnv>) {
  registerAdmitted(app, route, async (c) => {
    const codes = planCodes(c, c.req.valid('query'))
    const tier = c.get('tier')
    const keyHash = c.get('keyHash')!
    const services = c.get('services')
    const id = crypto.randomUUID()
    const limit = STREAM_LIMITS[tier].connections
    const guard = c.env.KEY_GUARD.getByName(keyHash) as unknown as Pick<KeyGuard, 'streamOpen'>
    const opened = await guard.streamOpen({ now: services.now(), id, limit })
    if (!opened.ok) throw new ApiError('STREAM_LIMIT', `a ${tier} key may hold ${limit} stream connection${limit === 1 ? '' : 's'} at once; close one first (a connection that ended without closing frees its slot within 90 s)`, { limit })
    const relay = new Relay({ env: c.env, keyHash, tier, codes, id, now: services.now })
    // The relay's last work (giving its lease back) outlives a client that went away.
    c.executionCtx.waitUntil(relay.done)
    if (wantsWebSocket(c)) {
      const pair = new WebSocketPair()
      const server = pair[1]
      server.accept()
      server.addEventListener('message', (e) => void relay.message(typeof e.data === 'string' ? e.data : new TextDecoder().decode(e.data as ArrayBuffer)))
      server.addEventListener('close', () => relay.end(null))
      server.addEventListener('error', () => relay.end(null))
      relay.start(webSocketSink(server))
      return answerResponse(c, new Response(null, { status: 101, webSocket: pair[0] }), STREAM_OUTCOME) as never
    }
    const { sink, body } = sseSink(() => relay)
    relay.start(sink)
    return answerResponse(c, new Response(body, { headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-accel-buffering': 'no' } }), STREAM_OUTCOME) as never
  })
}
