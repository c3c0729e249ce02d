import type { ChannelContext } from './types'
import { banned, ChannelError, httpError, network, timeout } from './errors'
import { isBanPage, isBanStatus, isEmptyBan } from './ban'
import { during } from '../runtime/request-scope'
import { budgetObjectOf } from './budget/host-budget'

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
 * GETs (or POSTs) an upstream URL and returns its body as text, turning every way it can go wrong into a
 * typed {@link ChannelError}: no answer within the timeout, a non-2xx status, a network failure, and
 * `banned` for a host that refuses us (a ban status, a captcha page, Tencent's empty throttle:
 * src/channels/ban.ts). Each request and its outcome is counted in `ctx.health` when given
 * (src/channels/host-health.ts).
 *
 * Here every call sends its own request: sharing a request in flight costs a joiner timers of its
 * own (src/domain/shared-flight.ts), more CPU than a round trip to the in-process emulator. The live
 * answers many callers want (quote lines, stock/get, K-lines) are shared above this, for the
 * source's cadence (src/channels/live-lines.ts), where a hit costs no round trip at all. The
 * request is counted against the host family's budget first (src/channels/budget/host-budget.ts).
 */
export async function fetchText(ctx: ChannelContext, channel: string, url: string, opts: FetchTextOptions = {}): Promise<string> {
  if (ctx.keptOnly) throw new ChannelError('over_budget', channel, 'answering from kept answers only; nothing sent')
  if (ctx.budgets) await ctx.budgets.spend(channel, ctx.now ? ctx.now() : Date.now(), budgetObjectOf)
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
      throw isBanStatus(res.status) ? banned(channel, `HTTP ${res.status}`, res.status) : httpError(channel, res.status)
    }
    const bytes = await res.arrayBuffer()
    if (isEmptyBan(channel, bytes.byteLength)) throw banned(channel, 'an empty answer (throttled)')
    const text = DECODERS[opts.encoding ?? 'utf-8'].decode(bytes)
    if (isBanPage(text)) throw banned(channel, 'a captcha or refusal page where data was expected')
    return text
  }
  const health = ctx.health
  health?.request(channel)
  try {
    const text = await during(`upstream:${channel}`, Promise.race([read(), deadline]))
    health?.success(channel)
    return text
  } catch (e) {
    health?.failure(channel)
    if (e instanceof ChannelError) throw e
    if (controller.signal.aborted) throw timeout(channel, ctx.timeoutMs)
    throw network(channel, e instanceof Error ? e.message : String(e))
  } finally {
    if (timer !== null) clearTimeout(timer)
  }
}
