/**
 * The emulator's switchboard: module-level state (faults per channel, the clock, request counters)
 * and {@link createEmulatorFetch}, the `fetch` the channels receive under the emulator. It routes
 * each upstream host to its wire handler (src/emulator/wire) and applies the channel's fault first.
 */
import type { ChannelName } from '../domain/channel-name'
import type { MarketModel } from './market/types'
import { eastmoneyEmpty, handleEastmoney } from './wire/eastmoney'
import { handleSina, sinaEmpty } from './wire/sina'
import { handleThs, thsEmpty } from './wire/ths'
import { handleHkex, hkexEmpty } from './wire/hkex'
import { handleSzse } from './wire/szse'
import { handleTencent, tencentEmpty } from './wire/tencent'
import { Lru } from './market/lru'

export const CHANNELS: readonly ChannelName[] = ['eastmoney', 'tencent', 'sina', 'ths', 'hkex']

export const FAULT_KINDS = ['timeout', 'http', 'ban', 'garbage', 'empty', 'slow', 'hang', 'truncated', 'nan', 'fields'] as const
type FaultKind = (typeof FAULT_KINDS)[number]

/**
 * A fault on one channel. `ms` is the delay of `slow` (default {@link DEFAULT_SLOW_MS}), or how long
 * a `ban` lasts on the emulator's clock from when it was set (until cleared without it); `count`,
 * when set, is how many more requests it affects before it clears itself.
 */
export interface Fault {
  kind: FaultKind
  ms?: number
  count?: number
}

/** Delay of a `slow` fault without `ms`. */
const DEFAULT_SLOW_MS = 1_000
/** No emulated wait lasts longer than this, so a test cannot hang on a fault. */
export const MAX_WAIT_MS = 30_000
/** The longest `ban` (one day of the emulator's clock): a ban's `ms` is no wait, only a term. */
export const MAX_BAN_MS = 86_400_000

const state = {
  faults: new Map<ChannelName, Fault>(),
  /** When each channel's fault was set, on the emulator's clock (a `ban` with `ms` ends from there). */
  faultSince: new Map<ChannelName, number>(),
  fixedNow: null as number | null,
  requests: { eastmoney: 0, tencent: 0, sina: 0, ths: 0, hkex: 0 } as Record<ChannelName, number>,
  /** Requests per host and path, codes in the path cut off (`qt.gtimg.cn/q=`, `push2.eastmoney.com/api/qt/stock/get`). */
  paths: new Map<string, number>(),
  /** Codes in each multi-code quote request (Tencent `q=`, Sina `list=`, Eastmoney `ulist.np`), by host, in order. */
  quoteCodes: new Map<string, number[]>(),
}

/** The emulator's clock in epoch ms: the fixed instant when one is set, else real time. */
export function now(): number {
  return state.fixedNow ?? Date.now()
}

/** Fixes the clock at `ms`, or returns it to real time with null. */
export function setClock(ms: number | null): void {
  state.fixedNow = ms
  memo.clear()
}

/** True while the clock is fixed. */
export function isClockFixed(): boolean {
  return state.fixedNow !== null
}

/** The clock as one object, for the service to read (`clock.now()`). */
export const clock = { now, set: setClock, isFixed: isClockFixed }

/** Sets the fault of a channel, replacing any earlier one. */
export function setFault(channel: ChannelName, fault: Fault): void {
  state.faults.set(channel, { ...fault })
  state.faultSince.set(channel, now())
}

/** Clears one channel's fault, or every channel's without an argument. */
export function clearFaults(channel?: ChannelName): void {
  if (channel) state.faults.delete(channel)
  else state.faults.clear()
}

/** Current faults per channel (null: none); `count` is what remains. */
export function faults(): Record<ChannelName, Fault | null> {
  return Object.fromEntries(CHANNELS.map((c) => [c, state.faults.has(c) ? { ...state.faults.get(c)! } : null])) as Record<ChannelName, Fault | null>
}

/** Requests each channel has received since the last reset. */
export function requestCounts(): Record<ChannelName, number> {
  return { ...state.requests }
}

const medianOf = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length ? s[Math.floor(s.length / 2)] : null
}

/** The multi-code quote requests since the last reset and the median of their codes: all of them, and by host. */
export function quoteCodeCounts(): { requests: number; median_codes: number | null; hosts: Record<string, { requests: number; median_codes: number | null }> } {
  const all = [...state.quoteCodes.values()].flat()
  const hosts = Object.fromEntries([...state.quoteCodes].map(([host, xs]) => [host, { requests: xs.length, median_codes: medianOf(xs) }]))
  return { requests: all.length, median_codes: medianOf(all), hosts }
}

/** Requests each host and path has received since the last reset. */
export function pathCounts(): Record<string, number> {
  return Object.fromEntries(state.paths)
}

/** Back to the initial state: no faults, real time, zero counters. */
export function resetEmulator(): void {
  state.faults.clear()
  state.faultSince.clear()
  state.fixedNow = null
  for (const c of CHANNELS) state.requests[c] = 0
  state.paths.clear()
  state.quoteCodes.clear()
}

/** The channel an upstream host belongs to, or undefined for a host the emulator does not serve. */
export function channelOfHost(hostname: string): ChannelName | undefined {
  const h = hostname.toLowerCase()
  const under = (domain: string) => h === domain || h.endsWith('.' + domain)
  if (under('eastmoney.com')) return 'eastmoney'
  if (under('gtimg.cn') || h === 'proxy.finance.qq.com') return 'tencent'
  if (under('sinajs.cn') || under('sina.cn') || under('sina.com.cn')) return 'sina'
  if (under('10jqka.com.cn')) return 'ths'
  if (under('hkexnews.hk')) return 'hkex'
  return undefined
}

type Handler = (url: URL, request: Request, market: MarketModel, now: number) => Response | Promise<Response>
type EmptyForm = (url: URL, market: MarketModel, now: number) => Response | undefined

const HANDLERS: Record<ChannelName, { handle: Handler; empty: EmptyForm }> = {
  eastmoney: { handle: handleEastmoney, empty: eastmoneyEmpty },
  tencent: { handle: handleTencent, empty: tencentEmpty },
  sina: { handle: handleSina, empty: sinaEmpty },
  ths: { handle: (url, _request, market, now) => handleThs(url, market, now), empty: thsEmpty },
  hkex: { handle: handleHkex, empty: hkexEmpty },
}

/** Takes the channel's fault for this request, counting down (and clearing) a limited one, and ending a `ban` whose term is over. */
function takeFault(channel: ChannelName): Fault | undefined {
  const f = state.faults.get(channel)
  if (!f) return undefined
  if (f.kind === 'ban' && f.ms !== undefined && now() - (state.faultSince.get(channel) ?? now()) >= f.ms) {
    state.faults.delete(channel)
    return undefined
  }
  if (f.count !== undefined) {
    f.count -= 1
    if (f.count <= 0) state.faults.delete(channel)
  }
  return f
}

const abortReason = (signal: AbortSignal) => signal.reason ?? new DOMException('The operation was aborted.', 'AbortError')

/**
 * Waits `ms`, rejecting as soon as `signal` aborts (with its reason). With `giveUp`, the end of the
 * wait is itself a failure: a connection that never answers and finally drops.
 */
function wait(ms: number, signal: AbortSignal | null | undefined, giveUp = false): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortReason(signal))
    const onAbort = () => {
      clearTimeout(timer)
      reject(abortReason(signal!))
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      if (giveUp) reject(new TypeError('fetch failed'))
      else resolve()
    }, Math.min(ms, MAX_WAIT_MS))
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

/**
 * What each host answers while it bans us, as the real ones do (docs/upstreams.md, "When a host
 * bans"): Eastmoney a 403 (its push hosts as often just drop the connection, which reads as a
 * network failure and cannot be told from one), Sina 403 with its "Kinsoku jikou desu!" page,
 * Tencent an empty 200 (its throttle), THS a 403 (no `v` cookie), HKEX a 403 (no report found).
 */
function bannedAnswer(channel: ChannelName): Response {
  switch (channel) {
    case 'tencent':
      return new Response(new Uint8Array(0), { status: 200, headers: { 'content-type': 'text/html; charset=GBK' } })
    case 'sina':
      return new Response('Kinsoku jikou desu!', { status: 403, headers: { 'content-type': 'text/html' } })
    default:
      return new Response(FORBIDDEN, { status: 403, headers: { 'content-type': 'text/html' } })
  }
}

const FORBIDDEN =
  '<html>\r\n<head><title>403 Forbidden</title></head>\r\n<body>\r\n<center><h1>403 Forbidden</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n'

const BAD_GATEWAY =
  '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n'

/** Bytes no upstream format can be read from: a stray gzip header, control bytes and invalid UTF-8. */
const GARBAGE = new Uint8Array([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0xff, 0xfe, 0x00, 0x9c, 0xc3, 0x28, 0x7b, 0x22, 0x72, 0xff, 0x01, 0x02, 0x1b, 0x5b, 0xe2, 0x28, 0xa1, 0x00])

type Corruption = 'truncated' | 'nan' | 'fields'

/**
 * Faults that spoil a real answer rather than replace it, so that every parser meets what a broken
 * proxy or a half-deployed upstream sends: `truncated` cuts the body in half; `nan` writes `NaN`
 * for every decimal number; `fields` drops the fourth field of every `~`- or comma-separated record
 * (Tencent and Sina lines, Eastmoney's K-line strings). None of these may ever be served.
 */
const CORRUPTIONS: Record<Corruption, (text: string) => string> = {
  truncated: (t) => t.slice(0, Math.floor(t.length / 2)),
  nan: (t) => t.replace(/(?<![\d.])\d+\.\d+(?![\d.])/g, 'NaN'),
  fields: (t) => t.replace(/(")([^"\n]*)(")/g, (whole, open: string, inner: string, close: string) => open + dropFourth(inner) + close),
}

/** A record with its fourth field dropped, if it has more than four `~`- or comma-separated fields. */
function dropFourth(record: string): string {
  for (const sep of ['~', ',']) {
    const parts = record.split(sep)
    if (parts.length > 4) return [...parts.slice(0, 3), ...parts.slice(4)].join(sep)
  }
  return record
}

async function corrupted(res: Response, spoil: (text: string) => string): Promise<Response> {
  const bytes = new Uint8Array(await res.arrayBuffer())
  // GBK answers (Tencent, Sina) are spoilt as Latin-1 text: the ASCII digits and separators move, the other bytes stay as they were.
  const text = Array.from(bytes, (b) => String.fromCharCode(b)).join('')
  const out = Uint8Array.from(spoil(text), (ch) => ch.charCodeAt(0))
  return new Response(out, { status: res.status, headers: res.headers })
}

/**
 * What the emulated host answers for `url` (a GET with `headers`: Sina refuses one without its
 * Referer, as the real host does; a POST of `body` when given) on the emulator's clock, with no
 * fault applied and nothing counted: `GET /__emulator/wire`, to compare the emulator with a real
 * capture from outside. Undefined for a host the emulator does not serve.
 */
export async function answerUpstream(market: MarketModel, url: URL, headers: Record<string, string> = {}, body?: string): Promise<Response | undefined> {
  if (url.hostname.toLowerCase() === 'www.szse.cn') return handleSzse(url, now())
  const channel = channelOfHost(url.hostname)
  if (!channel) return undefined
  return HANDLERS[channel].handle(url, new Request(url, body === undefined ? { headers } : { method: 'POST', headers, body }), market, now())
}

/**
 * A `fetch` that answers the upstreams' URLs from `market` on the emulator's clock. Unknown hosts
 * fail like a DNS error (`TypeError('fetch failed')`); unknown paths on known hosts get a 404; the
 * request's `AbortSignal` is honoured throughout.
 */
export function createEmulatorFetch(market: MarketModel): typeof fetch {
  const emulatorFetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init)
    const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined)
    if (signal?.aborted) throw abortReason(signal)
    const url = new URL(request.url)
    // SZSE's calendar feeds the refresh job only, not a data channel: no faults, no counter.
    if (url.hostname.toLowerCase() === 'www.szse.cn') return handleSzse(url, now())
    const channel = channelOfHost(url.hostname)
    if (!channel) throw new TypeError('fetch failed')
    state.requests[channel] += 1
    const path = url.hostname + url.pathname.replace(/=.*$/, '=')
    state.paths.set(path, (state.paths.get(path) ?? 0) + 1)
    const codes = path === 'qt.gtimg.cn/q=' || path === 'hq.sinajs.cn/list=' ? url.pathname.split('=')[1] : path === 'push2.eastmoney.com/api/qt/ulist.np/get' ? url.searchParams.get('secids') : null
    if (codes) {
      const counts = state.quoteCodes.get(url.hostname) ?? []
      counts.push(codes.split(',').length)
      state.quoteCodes.set(url.hostname, counts)
    }
    const { handle, empty } = HANDLERS[channel]
    const fault = takeFault(channel)
    switch (fault?.kind) {
      case 'hang':
        // Never answers and ignores the AbortSignal: what the request deadline must survive.
        return new Promise<Response>(() => {})
      case 'timeout':
        await wait(MAX_WAIT_MS, signal, true)
        throw new TypeError('fetch failed')
      case 'http':
        return new Response(BAD_GATEWAY, { status: 502, headers: { 'content-type': 'text/html' } })
      case 'ban':
        return bannedAnswer(channel)
      case 'garbage':
        return new Response(GARBAGE.slice(), { headers: { 'content-type': 'text/html' } })
      case 'empty': {
        const res = empty(url, market, now())
        if (res) return res
        break
      }
      case 'slow':
        await wait(fault.ms ?? DEFAULT_SLOW_MS, signal)
        break
    }
    const real = async (): Promise<Response> => {
      if (state.fixedNow === null) return handle(url, request, market, now())
      // Sina answers by Referer too, POST handlers (Guba's rank) by their body; nothing else matters to a handler.
      const body = request.method === 'POST' ? new TextDecoder().decode(await request.clone().arrayBuffer()) : ''
      const key = `${state.fixedNow} ${request.method} ${url.href} ${request.headers.get('referer') ?? ''} ${body}`
      return answered(key, () => handle(url, request, market, now()))
    }
    const corrupt = fault && CORRUPTIONS[fault.kind as Corruption]
    return corrupt ? corrupted(await real(), corrupt) : real()
  }
  return emulatorFetch as typeof fetch
}

/**
 * With the clock fixed, an answer is a pure function of the clock and the request, so the last
 * few hundred are kept (by clock, method, URL, Referer and POST body): repeated requests (tests, `npm run bench`) then cost what a real upstream
 * costs our worker, a response to read, and not the emulator's generation of it. Faults are taken
 * before this, and the request counters still count every request.
 */
const memo = new Lru<string, { status: number; headers: Array<[string, string]>; body: ArrayBuffer }>(500)

async function answered(key: string, make: () => Response | Promise<Response>): Promise<Response> {
  let hit = memo.get(key)
  if (!hit) {
    const res = await make()
    hit = { status: res.status, headers: [...res.headers], body: await res.arrayBuffer() }
    memo.set(key, hit)
  }
  return new Response(hit.body.slice(0), { status: hit.status, headers: hit.headers })
}
