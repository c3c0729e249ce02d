/**
 * `/__emulator/*`: the emulator's control routes (faults, clock, counters, reset), JSON in and out.
 * Mount with `app.route('/', emulatorRoutes)`; paths carry their `/__emulator` prefix. Only ever
 * served under the emulator (docs/emulator.md).
 */
import { Hono, type Context } from 'hono'
import { z } from 'zod'
import type { ChannelName } from '../domain/channel-name'
import { clearHangs, HANG_BINDINGS, hangs, setHangs } from './hang'
import { market } from './market'
import { answerUpstream, CHANNELS, clearFaults, FAULT_KINDS, faults, isClockFixed, MAX_BAN_MS, MAX_WAIT_MS, now, pathCounts, quoteCodeCounts, requestCounts,
  resetEmulator, setClock, setFault } from './control'

// `ms` is a wait (`slow`), at most MAX_WAIT_MS, or the term of a `ban`, at most a day.
const FaultBody = z
  .object({
    kind: z.enum(FAULT_KINDS),
    ms: z.number().int().min(0).max(MAX_BAN_MS).optional(),
    count: z.number().int().min(1).optional(),
  })
  .superRefine((f, ctx) => {
    if (f.kind !== 'ban' && f.ms !== undefined && f.ms > MAX_WAIT_MS) {
      ctx.addIssue({ code: 'too_big', origin: 'number', maximum: MAX_WAIT_MS, inclusive: true, path: ['ms'], input: f.ms, message: `Too big: expected number to be <=${MAX_WAIT_MS}` })
    }
  })

const ClockBody = z.object({ now: z.iso.datetime({ offset: true }) })

/** The state document every route answers with. */
function snapshot() {
  return {
    clock: { now: new Date(now()).toISOString(), fixed: isClockFixed() },
    faults: faults(),
    requests: requestCounts(),
    paths: pathCounts(),
    quote_codes: quoteCodeCounts(),
  }
}

interface Detail {
  type: string
  loc: Array<string | number>
  msg: string
  input: unknown
}

/** A zod issue in FastAPI's words (type, message) so clients parse emulator 422s like the API's. */
function toDetail(issue: z.core.$ZodIssue, body: unknown): Detail {
  const loc: Array<string | number> = ['body', ...issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))]
  const input = issue.path.reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k] : undefined), body)
  // An absent field, whatever the check that noticed it: FastAPI reports the enclosing object as input.
  if (input === undefined && issue.path.length > 0) return { type: 'missing', loc, msg: 'Field required', input: body }
  switch (issue.code) {
    case 'invalid_value':
      return { type: 'literal_error', loc, msg: `Input should be ${issue.values.map((v) => `'${String(v)}'`).join(', ')}`, input }
    case 'invalid_type':
      return issue.expected === 'int' || issue.expected === 'number'
        ? { type: 'int_type', loc, msg: 'Input should be a valid integer', input }
        : issue.expected === 'object'
          ? { type: 'model_attributes_type', loc, msg: 'Input should be a valid dictionary or object to extract fields from', input }
          : { type: `${issue.expected}_type`, loc, msg: `Input should be a valid ${issue.expected}`, input }
    case 'too_small':
      return { type: 'greater_than_equal', loc, msg: `Input should be greater than or equal to ${issue.minimum}`, input }
    case 'too_big':
      return { type: 'less_than_equal', loc, msg: `Input should be less than or equal to ${issue.maximum}`, input }
    case 'invalid_format':
      return { type: 'datetime_from_date_parsing', loc, msg: 'Input should be an ISO 8601 date-time with a UTC offset, e.g. 2025-01-02T15:00:00+08:00', input }
    default:
      return { type: 'value_error', loc, msg: issue.message, input }
  }
}

/** Reads and validates a JSON body; on failure, the response to send (422, FastAPI's shape). */
async function readBody<T>(c: Context, schema: z.ZodType<T>): Promise<{ ok: true; value: T } | { ok: false; response: Response }> {
  let body: unknown
  try {
    body = await c.req.json()
  } catch {
    return { ok: false, response: c.json({ detail: [{ type: 'json_invalid', loc: ['body'], msg: 'JSON decode error', input: null }] }, 422) }
  }
  const parsed = schema.safeParse(body)
  if (parsed.success) return { ok: true, value: parsed.data }
  return { ok: false, response: c.json({ detail: parsed.error.issues.map((i) => toDetail(i, body)) }, 422) }
}

function channelOf(c: Context): ChannelName | undefined {
  const ch = c.req.param('channel')
  return (CHANNELS as readonly string[]).includes(ch ?? '') ? (ch as ChannelName) : undefined
}

const unknownChannel = (c: Context) =>
  c.json({ error: `Unknown channel '${c.req.param('channel')}': use one of ${CHANNELS.join(', ')}.`, code: 'UNKNOWN_CHANNEL' }, 404)

/** The `/__emulator` control routes. */
export const emulatorRoutes = new Hono()

emulatorRoutes.get('/__emulator', (c) => c.json(snapshot()))

emulatorRoutes.put('/__emulator/faults/:channel', async (c) => {
  const channel = channelOf(c)
  if (!channel) return unknownChannel(c)
  const body = await readBody(c, FaultBody)
  if (!body.ok) return body.response
  setFault(channel, body.value)
  return c.json(snapshot())
})

emulatorRoutes.delete('/__emulator/faults/:channel', (c) => {
  const channel = channelOf(c)
  if (!channel) return unknownChannel(c)
  clearFaults(channel)
  return c.json(snapshot())
})

emulatorRoutes.delete('/__emulator/faults', (c) => {
  clearFaults()
  return c.json(snapshot())
})

emulatorRoutes.put('/__emulator/clock', async (c) => {
  const body = await readBody(c, ClockBody)
  if (!body.ok) return body.response
  setClock(Date.parse(body.value.now))
  return c.json(snapshot())
})

emulatorRoutes.delete('/__emulator/clock', (c) => {
  setClock(null)
  return c.json(snapshot())
})

emulatorRoutes.post('/__emulator/reset', (c) => {
  resetEmulator()
  clearHangs()
  return c.json(snapshot())
})

// Bindings that never answer (src/emulator/hang.ts), for the request-deadline tests.
const HangBody = z.object({ bindings: z.array(z.enum(HANG_BINDINGS)), ms: z.number().int().min(0).max(MAX_WAIT_MS).optional() })

emulatorRoutes.put('/__emulator/hang', async (c) => {
  const body = await readBody(c, HangBody)
  if (!body.ok) return body.response
  setHangs(body.value.bindings, body.value.ms ?? null)
  return c.json({ hanging: hangs() })
})

emulatorRoutes.delete('/__emulator/hang', (c) => {
  clearHangs()
  return c.json({ hanging: hangs() })
})

// What the emulated host answers for an upstream URL: status, content type and the raw bytes (GBK
// where the host sends GBK), no fault applied and nothing counted. `curl` it beside a real capture.
emulatorRoutes.get('/__emulator/wire', async (c) => {
  const raw = c.req.query('url')
  let url: URL | undefined
  try {
    url = raw ? new URL(raw) : undefined
  } catch {
    url = undefined
  }
  if (!url || !/^https?:$/.test(url.protocol)) {
    return c.json({ detail: [{ type: 'url_parsing', loc: ['query', 'url'], msg: 'Input should be a valid URL, percent-encoded', input: raw ?? null }] }, 422)
  }
  // The caller's Referer goes along: Sina answers 403 without one, as its real hosts do.
  const referer = c.req.header('referer')
  const res = await answerUpstream(market, url, referer ? { referer } : {})
  if (!res) return c.json({ detail: [{ type: 'value_error', loc: ['query', 'url'], msg: `The emulator does not serve host ${url.hostname}`, input: raw }] }, 422)
  return new Response(res.body, { status: res.status, headers: { 'content-type': res.headers.get('content-type') ?? 'application/octet-stream' } })
})
