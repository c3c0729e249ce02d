/**
 * An envelope whose `data` is a stored JSON document streamed as is: the standard fields are
 * written first, then the R2 object's bytes, then the closing brace. Nothing is parsed or held in
 * memory, so the worker's footprint does not grow with the document (a whole market's day).
 */
import type { Context } from 'hono'
import { answerBody } from './answer'
import type { AppEnv, Outcome } from './context'
import type { Envelope } from './envelope'
import { headThrough, tailAfter } from './json-splice'

/**
 * The response `{...head, "data": <body>}`. `head` must not contain `data`; `elapsed_ms` is taken
 * now, before the body streams. The length is known up front (head + object size + 1), so the
 * response carries a Content-Length.
 */
export function streamEnvelope(c: Context<AppEnv>, head: Omit<Envelope<unknown>, 'data' | 'elapsed_ms'>, body: R2ObjectBody, outcome: Outcome): Response {
  const { ok, endpoint, tier, source, ...extra } = head
  const fields = { ok, endpoint, tier, elapsed_ms: Math.max(0, Math.round(performance.now() - c.get('startedAt'))), source, ...extra }
  const enc = new TextEncoder()
  const open = enc.encode(headThrough(fields, 'data'))
  const close = enc.encode(tailAfter({}))
  const { readable, writable } = new FixedLengthStream(open.byteLength + body.size + close.byteLength)
  const pump = (async () => {
    let w = writable.getWriter()
    await w.write(open)
    w.releaseLock()
    // Native-to-native pipe: workerd moves the bytes without running JavaScript per chunk.
    await body.body.pipeTo(writable, { preventClose: true })
    w = writable.getWriter()
    await w.write(close)
    await w.close()
  })().catch((e) => console.error('stream envelope: body failed mid-way', e))
  try {
    c.executionCtx.waitUntil(pump)
  } catch {
    // No execution context (an in-process call): the stream is driven by its reader anyway.
  }
  // Through c.body so the headers middleware set before the handler (rate limits, request id) stay.
  return answerBody(c, readable, outcome, { 'content-type': 'application/json; charset=utf-8' })
}
