import type { ChannelContext } from './types'
import { ChannelError, httpError, network, timeout } from './errors'
import { SharedFlights } from '../domain/shared-flight'
import { currentScope, during } from '../runtime/request-scope'

export interface FetchTextOptions {
  headers?: Record<string, string>
  /** Upstream text encoding; Tencent and Sina speak GBK. */
  encoding?: 'utf-8' | 'gbk'
  /** A POST with this body (Guba's rank takes JSON); GET when absent. */
  post?: string
}

/**
 * One decoder per encoding for every upstream answer: a whole-body decode keeps no state between
 * calls, and making a GBK decoder per request was a measurable part of a keyed /v1/quote.
 */
const DECODERS: Record<NonNullable<FetchTextOptions['encoding']>, TextDecoder> = { 'utf-8': new TextDecoder('utf-8'), gbk: new TextDecoder('gbk') }

/**
 * Upstream GETs in flight, per upstream fetch (production's, the emulator's, a test's stand-in) and
 * by channel, URL, encoding and headers. A request that asks for what another is already fetching
 * joins that round trip instead of sending its own: the round trip was under way when it asked, so
 * the answer is at most one round trip older than its own would be, and a burst of callers of one
 * popular code costs the upstream one request, not one each. Only the text crosses between requests
 * (src/domain/shared-flight.ts); a settled flight is forgotten, so this is never a cache.
 */
const inFlight = new WeakMap<typeof fetch, SharedFlights<string, string>>()

/**
 * GETs (or POSTs) an upstream URL and returns its body as text, turning every way it can go wrong into a
 * typed {@link ChannelError}: no answer within the timeout, a non-2xx status, a network failure.
 * Identical GETs in flight at the same time share one round trip (see {@link inFlight}).
 */
export function fetchText(ctx: ChannelContext, channel: string, url: string, opts: FetchTextOptions = {}): Promise<string> {
  const stage = `upstream:${channel}` as const
  if (opts.post !== undefined) return during(stage, fetchTextAlone(ctx, channel, url, opts))
  let flights = inFlight.get(ctx.fetch)
  if (!flights) inFlight.set(ctx.fetch, (flights = new SharedFlights(ctx.timeoutMs)))
  const key = `${channel} ${opts.encoding ?? 'utf-8'} ${url} ${opts.headers ? JSON.stringify(opts.headers) : ''}`
  // A joiner waits at most its own timeout from the round trip's start, as if it had sent it then.
  // A round trip whose request is over (answered, or cut off by its deadline) may never end: it is
  // not waited for.
  const owner = currentScope()
  const shared = flights.run(key, () => fetchTextAlone(ctx, channel, url, opts), { maxAgeMs: ctx.timeoutMs, abandoned: owner && (() => owner.over) })
  return during(stage, shared)
}

/** One round trip of its own: {@link fetchText} without sharing. */
async function fetchTextAlone(ctx: ChannelContext, channel: string, url: string, opts: FetchTextOptions): Promise<string> {
  const controller = new AbortController()
  let timer: ReturnType<typeof setTimeout> | null = null
  // Race a timer as well as aborting: a fetch that ignores its signal must not hang the request.
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort()
      reject(timeout(channel, ctx.timeoutMs))
    }, ctx.timeoutMs)
  })
  const read = async () => {
    const init: RequestInit = opts.post === undefined ? {} : { method: 'POST', body: opts.post }
    const res = await ctx.fetch(url, { ...init, headers: opts.headers, signal: controller.signal })
    if (!res.ok) {
      await res.body?.cancel()
      throw httpError(channel, res.status)
    }
    const bytes = await res.arrayBuffer()
    return DECODERS[opts.encoding ?? 'utf-8'].decode(bytes)
  }
  try {
    return await Promise.race([read(), deadline])
  } catch (e) {
    if (e instanceof ChannelError) throw e
    if (controller.signal.aborted) throw timeout(channel, ctx.timeoutMs)
    throw network(channel, e instanceof Error ? e.message : String(e))
  } finally {
    if (timer !== null) clearTimeout(timer)
  }
}
