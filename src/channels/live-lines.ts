/**
 * The live lines of the multi-code quote feeds (Tencent `qt.gtimg.cn`, Sina `hq.sinajs.cn`), shared
 * by every caller of the isolate within the source's own cadence (docs/architecture.md, "Polite at
 * scale"). The exchanges publish Level-1 snapshots every 3 s and these hosts refresh no faster, so a
 * line younger than that is as fresh as any new request could get: quote, snapshot and order-book
 * calls of one symbol read the same line, and calls for different symbols share batched requests.
 *
 * - **Sharing.** A line is reused while younger than {@link LineFeed.cadenceMs} by the service's
 *   clock; a code the host does not know is remembered as such for as long.
 * - **Batching.** A code not in the pool waits a few milliseconds ({@link GATHER_MS}; a busy pool up
 *   to {@link BUSY_GATHER_MS}, or until the batch is full) for the codes other calls miss meanwhile,
 *   then goes in one request of up to the host's batch size. The request
 *   is filled with the stale lines of codes asked for recently (the active set), so a busy isolate
 *   refreshes its whole set in full batches: about one request per batch-size codes per cadence.
 * - **Kept answers.** A call whose context says `keptOnly` (the budget is spent, or the host bans us)
 *   reads whatever the pool keeps up to {@link KEPT_ANSWER_LIMIT_MS} old and sends nothing: a code
 *   with no line kept is absent from the answer.
 * - **Workerd's rule** (src/domain/shared-flight.ts): the request that opens a batch sends it; the
 *   others watch its {@link Flight} and read plain text once it lands, waiting at most a little
 *   over the channel timeout before asking on their own.
 */
import { mapLimit } from '../domain/concurrency'
import { Flight } from '../domain/shared-flight'
import { ChannelError } from './errors'
import { fetchText } from './http'
import { jsStatements } from './js-statements'
import { quoteCadenceMs } from './cadence'
import type { CachedLine, LineCache } from './line-cache'
import { inBackground } from '../runtime/request-scope'
import type { ChannelContext, ChannelName, FeedLine, LineFeed, LiveRequestOptions, SharedLines } from './types'
import { cacheKind } from '../runtime/isolate-caches'

export type { LineFeed }

/** How long the first miss waits for others before its request goes out (real ms). */
const GATHER_MS = 4
/**
 * A busy pool's gather (real ms): once a feed misses {@link BUSY_MISSES_PER_S} codes a second (over
 * the last {@link BUSY_WINDOW_MS}), its misses are mostly one symbol each from the long tail of a
 * large crowd, and 4 ms gathers one or two of them a request. Waiting this long gathers at least
 * six, and at the rate 10,000 users ask fills a request (docs/performance.md, "Many users"); a batch
 * that fills goes at once. It is the longest wait a call may see before its request leaves, and
 * only under that load.
 */
const BUSY_GATHER_MS = 300
const BUSY_MISSES_PER_S = 20
const BUSY_WINDOW_MS = 2_000
/** A code asked for within this long stays in the active set (service clock, ms). */
const ACTIVE_MS = 60_000
/** Batch requests of one flight in flight at once: Workers open six connections at a time. */
const PARALLEL = 4
/** Lines kept per feed; the oldest-refreshed go first. */
const MAX_LINES = 20_000
/** Characters of single-code pages kept; the oldest-fetched go first. */
const MAX_PAGE_CHARS = 4_000_000
/** A page longer than this is not kept: it would crowd out hundreds of others. */
const MAX_KEPT_PAGE_CHARS = 64_000

/**
 * The oldest line or page a call with {@link ChannelContext.keptOnly} may serve (service clock): past
 * the budget or during a ban, an answer this old is still worth more than none, and says its age.
 */
const KEPT_ANSWER_LIMIT_MS = 15 * 60_000

/** A code's statement as the host sent it, or null when the host sent none for it. */
type Line = FeedLine | null

interface Entry {
  /** The code as the host takes it (Sina's futures are upper case). */
  code: string
  line: Line
  /** Service-clock time the line was fetched. */
  at: number
  /** Service-clock time the code was last asked for. */
  asked: number
}

/** The codes of one batch and the flight that fetches them. */
interface Batch {
  /** The codes as the host takes them, by key. */
  codes: Map<string, string>
  flight: Flight<Map<string, Line>>
  /** Still taking codes (the opener has not sent it yet). */
  open: boolean
  /** How long it gathers (real ms): joiners wait that much longer. */
  gatherMs: number
}

/** What the pool did (requests sent, codes in them, lines served from the pool): its tests read it. */
export interface LineCounts {
  requests: number
  codesRequested: number
  hits: number
  /** Lines read from the location's shared cache (src/channels/line-cache.ts). */
  sharedHits: number
}

/** The pool of one isolate: one per service (src/services/index.ts), cleared by its reset. */
export class LinePool implements SharedLines {
  private readonly feeds = new Map<LineFeed, FeedPool>()
  private readonly pages = new Map<string, { text: string; at: number }>()
  private readonly pageFlights = new Map<string, Flight<string>>()
  private readonly pageTally = { requests: 0, hits: 0 }
  private pageChars = 0

  private forget(url: string): void {
    const old = this.pages.get(url)
    if (!old) return
    this.pages.delete(url)
    this.pageChars -= old.text.length
  }

  /** The lines shared with the location's other isolates, if any (src/channels/line-cache.ts). */
  shared: LineCache | undefined

  constructor(
    private readonly now: () => number,
    private readonly gatherMs = GATHER_MS
  ) {}

  /** The statements of `codes` as one answer text, in the order asked, from the pool, the location's cache or the host. */
  async text(ctx: ChannelContext, feed: LineFeed, codes: readonly string[]): Promise<string> {
    return joinLines(feed, await this.lines(ctx, feed, codes))
  }

  /** The same lines as objects, kept as they are for the cadence (a parser may keep what it read from one). */
  lines(ctx: ChannelContext, feed: LineFeed, codes: readonly string[]): Promise<FeedLine[]> {
    let pool = this.feeds.get(feed)
    if (!pool) this.feeds.set(feed, (pool = new FeedPool(feed, this.now, this.gatherMs, () => this.shared)))
    return pool.lines(ctx, codes)
  }

  async page(ctx: ChannelContext, channel: ChannelName, url: string, options: LiveRequestOptions, code: string): Promise<string> {
    const now = this.now()
    const hit = this.pages.get(url)
    if (ctx.keptOnly) {
      if (hit && now >= hit.at && now - hit.at <= KEPT_ANSWER_LIMIT_MS) return hit.text
      throw new ChannelError('over_budget', channel, 'no answer kept to serve; nothing sent')
    }
    if (hit && now >= hit.at && now - hit.at < quoteCadenceMs(code, now)) {
      this.pageTally.hits++
      return hit.text
    }
    const flight = this.pageFlights.get(url)
    const joined = flight && (await flight.joinWithin(ctx.timeoutMs + 1_000))
    if (joined) {
      this.pageTally.hits++
      return joined.value
    }
    this.pageTally.requests++
    const work = fetchText(ctx, channel, url, options)
    const mine = new Flight(work)
    this.pageFlights.set(url, mine)
    try {
      const text = await work
      this.forget(url)
      if (text.length <= MAX_KEPT_PAGE_CHARS) {
        this.pages.set(url, { text, at: this.now() })
        this.pageChars += text.length
        for (const [old] of this.pages) {
          if (this.pageChars <= MAX_PAGE_CHARS) break
          this.forget(old)
        }
      }
      return text
    } finally {
      if (this.pageFlights.get(url) === mine) this.pageFlights.delete(url)
    }
  }

  /** Requests, codes and hits per feed's channel since the pool was made. */
  counts(): Record<string, LineCounts> {
    const out: Record<string, LineCounts> = {}
    for (const [feed, pool] of this.feeds) out[feed.channel] = { ...pool.counts }
    return out
  }

  /** Requests and hits of the single-code pages since the pool was made. */
  pageCounts(): { requests: number; hits: number } {
    return { ...this.pageTally }
  }

  /** Forgets this isolate's lines, and the location's with them (a new generation of cache keys). */
  clear(): void {
    this.shared?.clear()
    this.forgetOwn()
  }

  /** Forgets this isolate's lines alone, as a new isolate would start (the location's cache stays). */
  forgetOwn(): void {
    this.feeds.clear()
    this.pages.clear()
    this.pageChars = 0
    this.pageFlights.clear()
  }
}

/**
 * The live quote lines and single-code pages of this isolate (one pool per `Services`, on the
 * service clock); clearing it also starts a new generation of the location's shared lines.
 */
export const LIVE_LINES = cacheKind('live quote lines and pages', (env) => new LinePool(env.now), (p) => p.clear())

/** A single-code live answer: through the context's pool when it has one, else one plain request. */
export function fetchLivePage(ctx: ChannelContext, channel: ChannelName, url: string, options: LiveRequestOptions, code: string): Promise<string> {
  return ctx.lines ? ctx.lines.page(ctx, channel, url, options, code) : fetchText(ctx, channel, url, options)
}

/** The statements of `codes` from a feed: through the context's pool when it has one, else one plain request (at most the feed's batch of codes). */
export async function fetchLines(ctx: ChannelContext, feed: LineFeed, codes: readonly string[]): Promise<string> {
  return ctx.lines ? ctx.lines.text(ctx, feed, codes) : fetchText(ctx, feed.channel, feed.url(codes), optionsOf(feed))
}

/** The same as lines (see {@link FeedLine}): the pool's own objects, in the order asked, or, without a pool, the host's answer cut up. */
export async function fetchFeedLines(ctx: ChannelContext, feed: LineFeed, codes: readonly string[]): Promise<FeedLine[]> {
  if (ctx.lines) return ctx.lines.lines(ctx, feed, codes)
  return splitLines(feed, await fetchText(ctx, feed.channel, feed.url(codes), optionsOf(feed)))
}

/** A feed's answer cut into its lines, as the pool keeps them. */
export function splitLines(feed: LineFeed, text: string): FeedLine[] {
  const split = feed.format?.split ?? ((t: string) => jsStatements(feed.channel, feed.prefix, t))
  return split(text).map(([name, payload]) => ({ name, payload }))
}

/** Lines put back into the answer text the feed's parsers read. */
function joinLines(feed: LineFeed, lines: readonly FeedLine[]): string {
  if (feed.format) return feed.format.join(lines)
  let out = ''
  for (const line of lines) out += `${feed.prefix}${line.name}="${line.payload}";\n`
  return out
}

const keyOf = (code: string) => code.toLowerCase()
const optionsOf = (feed: LineFeed) => ({ encoding: feed.encoding, headers: feed.headers ? { ...feed.headers } : undefined })

class FeedPool {
  private readonly entries = new Map<string, Entry>()
  /** Codes in a batch not yet landed, by key. */
  private readonly inFlight = new Map<string, Batch>()
  /** The batch taking codes now, if any. */
  private gathering: Batch | null = null
  /** Codes missed lately, as [real time ms, count], the oldest first: how busy the pool is. */
  private readonly misses: Array<[number, number]> = []
  private missed = 0
  readonly counts: LineCounts = { requests: 0, codesRequested: 0, hits: 0, sharedHits: 0 }

  constructor(
    private readonly feed: LineFeed,
    private readonly now: () => number,
    private readonly gatherMs: number,
    private readonly shared: () => LineCache | undefined
  ) {}

  async lines(ctx: ChannelContext, codes: readonly string[]): Promise<FeedLine[]> {
    const now = this.now()
    const lines = new Map<string, Line>()
    const missing: string[] = []
    for (const code of codes) {
      const key = keyOf(code)
      const e = this.entries.get(key)
      if (e) e.asked = now
      if (ctx.keptOnly) {
        if (e && now >= e.at && now - e.at <= KEPT_ANSWER_LIMIT_MS) lines.set(key, e.line)
      } else if (e && now >= e.at && now - e.at < this.feed.cadenceMs(code, now)) {
        lines.set(key, e.line)
        this.counts.hits++
      } else missing.push(code)
    }
    const left = missing.length ? await this.fromShared(missing, now, lines) : missing
    if (left.length) for (const [k, line] of await this.load(ctx, left, now)) lines.set(k, line)
    const out: FeedLine[] = []
    for (const code of codes) {
      const line = lines.get(keyOf(code))
      if (line) out.push(line)
    }
    return out
  }

  /**
   * Takes the fresh lines of `codes` from the location's cache into the pool and `lines`; returns
   * the codes still missing. A cache that fails is a miss: the host is asked.
   */
  private async fromShared(codes: readonly string[], now: number, lines: Map<string, Line>): Promise<readonly string[]> {
    const shared = this.shared()
    // A code in one of this isolate's batches joins it: reading the location's cache for it would be a read for nothing.
    const ask = shared ? codes.filter((c) => !this.inFlight.has(keyOf(c))) : []
    if (!shared || ask.length === 0) return codes
    const kept = await shared.read(this.feed.channel, ask.map(keyOf)).catch(() => new Map<string, CachedLine>())
    const left: string[] = []
    for (const code of codes) {
      const key = keyOf(code)
      const e = kept.get(key)
      if (e && now >= e.at && now - e.at < this.feed.cadenceMs(code, now)) {
        this.store(key, e.code, e.line, e.at, now)
        lines.set(key, e.line)
        this.counts.sharedHits++
      } else left.push(code)
    }
    return left
  }

  /** Lines of codes not fresh in the pool: joined from a batch in flight, or sent in a new one. */
  private async load(ctx: ChannelContext, codes: readonly string[], now: number): Promise<Map<string, Line>> {
    const joined = new Set<Batch>()
    const own: string[] = []
    for (const code of codes) {
      const b = this.inFlight.get(keyOf(code))
      if (b) joined.add(b)
      else own.push(code)
    }
    const parts: Array<Promise<Map<string, Line> | undefined>> = [...joined].map((b) => b.flight.joinWithin(ctx.timeoutMs + 1_000).then((j) => j?.value))
    let mine: Promise<Map<string, Line>> | undefined
    if (own.length) {
      this.noteMisses(own.length)
      const g = this.gathering
      if (g && g.open && g.codes.size + own.length <= this.feed.batch) {
        for (const c of own) this.addTo(g, c)
        parts.push(g.flight.joinWithin(ctx.timeoutMs + g.gatherMs + 1_000).then((j) => j?.value))
      } else mine = this.open(ctx, own, now, this.gatherNow())
    }
    const got = await Promise.all([mine, ...parts])
    const out = new Map<string, Line>()
    for (const m of got) if (m) for (const [k, v] of m) out.set(k, v)
    // A batch watched too long (its request ended first): ask for what is still missing.
    const left = codes.filter((c) => !out.has(keyOf(c)))
    if (left.length) for (const [k, v] of await this.open(ctx, left, now, 0)) out.set(k, v)
    return out
  }

  private addTo(b: Batch, code: string): void {
    const key = keyOf(code)
    b.codes.set(key, code)
    this.inFlight.set(key, b)
  }

  private noteMisses(n: number): void {
    const t = Date.now()
    this.misses.push([t, n])
    this.missed += n
    while (t - this.misses[0][0] > BUSY_WINDOW_MS) this.missed -= this.misses.shift()![1]
  }

  /** The gather of a batch opened now: {@link BUSY_GATHER_MS} when the pool is busy. */
  private gatherNow(): number {
    const busy = this.missed >= (BUSY_MISSES_PER_S * BUSY_WINDOW_MS) / 1_000
    return busy && this.gatherMs > 0 ? Math.max(this.gatherMs, BUSY_GATHER_MS) : this.gatherMs
  }

  /** Opens a batch with `codes`, gathers for a moment, fills it with stale active codes and sends it. */
  private open(ctx: ChannelContext, codes: readonly string[], now: number, gatherMs = this.gatherMs): Promise<Map<string, Line>> {
    let resolveWork!: (m: Map<string, Line>) => void
    let rejectWork!: (e: unknown) => void
    const work = new Promise<Map<string, Line>>((res, rej) => ((resolveWork = res), (rejectWork = rej)))
    const batch: Batch = { codes: new Map(), flight: new Flight(work), open: true, gatherMs }
    for (const c of codes) this.addTo(batch, c)
    if (gatherMs > 0) this.gathering = batch
    const send = async () => {
      batch.open = false
      if (this.gathering === batch) this.gathering = null
      const asked = [...batch.codes.keys()]
      const filler = this.staleActive(this.now(), Math.ceil(asked.length / this.feed.batch) * this.feed.batch - asked.length)
      for (const [k] of filler) this.inFlight.set(k, batch)
      const all = [...batch.codes, ...filler]
      try {
        const lines = await this.fetchAll(ctx, all.map(([, code]) => code))
        const at = this.now()
        for (const [k, code] of all) this.store(k, code, lines.get(k) ?? null, at, batch.codes.has(k) ? now : 0)
        const shared = this.shared()
        if (shared) inBackground(shared.write(this.feed.channel, all.map(([k, code]) => [k, { code, line: lines.get(k) ?? null, at }] as const)), 'sharing live lines')
        // Every code of the batch, fillers too: a call that missed one of them meanwhile joined this batch.
        resolveWork(new Map(all.map(([k]) => [k, lines.get(k) ?? null])))
      } catch (e) {
        rejectWork(e)
      } finally {
        for (const [k] of all) if (this.inFlight.get(k) === batch) this.inFlight.delete(k)
      }
    }
    if (gatherMs > this.gatherMs) {
      // A long gather looks every GATHER_MS whether the batch is full, and then goes at once. The
      // opener's own timers send it, as workerd's rule wants (src/domain/shared-flight.ts).
      const until = Date.now() + gatherMs
      const look = () => (batch.codes.size >= this.feed.batch || Date.now() >= until ? void send() : setTimeout(look, this.gatherMs))
      setTimeout(look, this.gatherMs)
    } else if (gatherMs > 0) setTimeout(send, gatherMs)
    else void send()
    return work
  }

  /** Up to `room` codes asked for recently whose lines are stale, the oldest first, as [key, code]. */
  private staleActive(now: number, room: number): Array<[string, string]> {
    if (room <= 0) return []
    const stale: Entry[] = []
    for (const [k, e] of this.entries) {
      if (now - e.asked > ACTIVE_MS || this.inFlight.has(k)) continue
      if (now < e.at || now - e.at >= this.feed.cadenceMs(e.code, now)) stale.push(e)
    }
    return stale.sort((a, b) => a.at - b.at).slice(0, room).map((e) => [keyOf(e.code), e.code])
  }

  /** The lines of `keys` in requests of at most the host's batch size. */
  private async fetchAll(ctx: ChannelContext, keys: readonly string[]): Promise<Map<string, Line>> {
    const batches: string[][] = []
    for (let k = 0; k < keys.length; k += this.feed.batch) batches.push(keys.slice(k, k + this.feed.batch))
    const texts = await mapLimit(batches, PARALLEL, (b) => {
      this.counts.requests++
      this.counts.codesRequested += b.length
      return fetchText(ctx, this.feed.channel, this.feed.url(b), optionsOf(this.feed))
    })
    const out = new Map<string, Line>()
    for (const text of texts) for (const line of splitLines(this.feed, text)) out.set(keyOf(line.name), line)
    return out
  }

  /** Keeps a fetched line; `asked` is when it was asked for (0 for a filler, which keeps its own). */
  private store(key: string, code: string, line: Line, at: number, asked: number): void {
    const old = this.entries.get(key)
    if (old) this.entries.delete(key)
    else if (this.entries.size >= MAX_LINES) this.entries.delete(this.entries.keys().next().value!)
    this.entries.set(key, { code, line, at, asked: Math.max(old?.asked ?? 0, asked) })
  }
}
