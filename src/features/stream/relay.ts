/**
 * The Worker side of a push-quote connection (`GET /v1/stream`, docs/architecture.md "Push
 * quotes"): one relay per client connection. It opens one WebSocket to each shard object its codes
 * fall in (src/features/stream/stream-shard.ts) and forwards their events to the client, as
 * Server-Sent Events or WebSocket messages. The relay, not the shard, holds the client's
 * connection: a shard then holds one hibernatable socket per relay, shared by every symbol of that
 * relay, and its work per change is one message per relay whatever the client's transport; an SSE
 * response held by the object would keep it in memory (a streaming body cannot hibernate).
 *
 * - **Heartbeat** every 20 s (`heartbeat` event), numbered per connection (`seq` 1, 2, 3, …) on
 *   both transports, one code path; only a WebSocket client answers it.
 * - **Lease and usage.** Every minute (`recheckMs`) the relay refreshes its connection's lease in
 *   the key's KeyGuard (a lease lapses 90 s after its last refresh, so a dead relay frees its slot),
 *   records the minutes started since, and re-reads the key: a revoked key ends the stream with a
 *   `KEY_INVALID` error within that minute.
 * - **Slow subscribers**, never growing memory without bound. SSE: bytes written but not yet taken
 *   by the client are counted; past `slowBytes` (256 KB) the stream ends with a `SLOW_CONSUMER`
 *   error. WebSocket: workerd's socket shows neither its send buffer (no `bufferedAmount`) nor a way
 *   to send a ping frame, so the client acknowledges each heartbeat with `{"ack":seq}`; messages are
 *   ordered, so an ack of heartbeat n proves everything sent before it was read. About to send
 *   heartbeat n, the relay ends a stream whose last ack is older than heartbeat n − `ackWindow` (2:
 *   some 40 s of silence) with `SLOW_CONSUMER` (close code 1013); its unread data is at most what
 *   `ackWindow` + 1 intervals carry (docs/access.md "Streams"). A bad ack gets a `BAD_REQUEST` event.
 */
import type { KeyGuard } from '../../access/key-guard'
import { kvKeyOf, KeyRecordSchema } from '../../access/keys'
import { STREAM_LIMITS, type Tier } from '../../access/tiers'
import { isoInstant } from '../../domain/instant'
import { streamTuning } from '../../runtime/stream-tuning'
import { shardOf, type StreamEvent } from './stream-shard'
import { parseStreamCodes } from './codes'

/** Why a relay ended, as its last event says (`null`: the client left, nothing to say). */
export interface Ending {
  code: 'KEY_INVALID' | 'SLOW_CONSUMER' | 'UPSTREAM_UNAVAILABLE' | 'STREAM_LIMIT'
  error: string
}

/** The WebSocket close codes of each ending (docs/access.md "Streams"). */
export const CLOSE_CODES: Record<Ending['code'], number> = {
  KEY_INVALID: 1008,
  STREAM_LIMIT: 1008,
  SLOW_CONSUMER: 1013,
  UPSTREAM_UNAVAILABLE: 1011,
}

/** Where the relay's events go: the SSE body or the client's WebSocket. */
export interface Sink {
  /** Whether the client acknowledges heartbeats (WebSocket: the relay cannot see its send buffer). */
  readonly acks: boolean
  /**
   * Sends events, in order: a shard's message at once (one SSE write for all of its quotes, as a
   * write per event was most of a relay's CPU per cadence: docs/performance.md, "Push quotes").
   * Returns false when the client is too far behind (the relay then ends).
   */
  send(events: readonly StreamEvent[]): boolean
  /** Sends the last event (if any) and closes the connection. */
  end(last: Ending | null): void
}

export interface RelayOptions {
  env: Env
  keyHash: string
  tier: Tier
  codes: string[]
  /** This connection's lease id in the key's KeyGuard. */
  id: string
  /** Service clock (the day usage is counted in). */
  now: () => number
}

/** The KeyGuard calls of a relay, through a stub (each a promise). */
interface StreamGuard {
  streamRefresh(req: Parameters<KeyGuard['streamRefresh']>[0]): Promise<void>
  streamClose(id: string): Promise<void>
}

export class Relay {
  private readonly shards = new Map<string, { ws: WebSocket; codes: string[] }>()
  private codes: string[]
  /** {@link codes} for lookups. */
  private held: Set<string>
  private ended = false
  private readonly timers: Array<ReturnType<typeof setInterval>> = []
  private lastStatus = ''
  /** The last heartbeat's `seq` sent, and the highest the client acknowledged (WebSocket). */
  private seq = 0
  private acked = 0
  private readonly openedAt = Date.now()
  /** Minutes of this connection already recorded (the opening call counts the first). */
  private minutesRecorded = 1
  private sink!: Sink
  private finished!: () => void
  /**
   * Settles once the relay has ended and given its lease back: the request keeps it in `waitUntil`,
   * so that work still runs after the client went away (the runtime then ends the request's I/O).
   */
  readonly done = new Promise<void>((resolve) => (this.finished = resolve))

  constructor(private readonly o: RelayOptions) {
    this.codes = [...o.codes]
    this.held = new Set(this.codes)
  }

  /** Connects to the shards and starts the heartbeat and the minute's recheck. */
  start(sink: Sink): void {
    this.sink = sink
    this.timers.push(setInterval(() => this.heartbeat(), streamTuning.heartbeatMs))
    this.timers.push(setInterval(() => void this.recheck(), streamTuning.recheckMs))
    void this.route(this.codes).catch((e) => {
      console.error('stream relay: shard connection failed', e)
      this.end({ code: 'UPSTREAM_UNAVAILABLE', error: 'the stream could not reach its quote objects; reconnect' })
    })
  }

  /** A client's `{"subscribe":[…]}`, `{"unsubscribe":[…]}` or `{"ack":seq}` (WebSocket only). */
  async message(raw: string): Promise<void> {
    let json: unknown
    try {
      json = JSON.parse(raw)
    } catch {
      json = undefined
    }
    if (typeof json !== 'object' || json === null || Array.isArray(json)) {
      return this.refuse('a message is a JSON object: {"subscribe":["sh600519"]}, {"unsubscribe":["sh600519"]} or {"ack":1}')
    }
    const m = json as { subscribe?: unknown; unsubscribe?: unknown; ack?: unknown }
    if ('ack' in m) return this.ack(m.ack)
    const list = m.subscribe ?? m.unsubscribe
    if (!Array.isArray(list) || list.some((c) => typeof c !== 'string')) return this.refuse('subscribe / unsubscribe take an array of codes')
    const parsed = parseStreamCodes(list.join(','))
    if (parsed.errors.length) return this.refuse(parsed.errors.join('; '))
    const next = m.subscribe !== undefined ? [...new Set([...this.codes, ...parsed.codes])] : this.codes.filter((c) => !parsed.codes.includes(c))
    const limit = STREAM_LIMITS[this.o.tier].symbols
    if (next.length > limit) return this.refuse(`a ${this.o.tier} connection may hold at most ${limit} symbols; this would make ${next.length}`)
    this.codes = next
    this.held = new Set(next)
    await this.route(next)
  }

  /** Ends the connection once: shards closed, lease given back, the last event sent. */
  end(last: Ending | null): void {
    if (this.ended) return
    this.ended = true
    for (const t of this.timers) clearInterval(t)
    for (const { ws } of this.shards.values()) closeQuietly(ws)
    this.shards.clear()
    this.sink.end(last)
    void this.guard()
      .streamClose(this.o.id)
      .catch((e) => console.error('stream relay: lease not given back (it lapses by itself)', e))
      .finally(this.finished)
  }

  /** A heartbeat's acknowledgement: a seq already sent; a bad one is refused and does not count. */
  private ack(n: unknown): void {
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > this.seq) {
      const sent = this.seq ? `a positive integer up to ${this.seq}` : 'and none has been sent yet'
      return this.refuse(`ack takes the seq of a heartbeat sent, ${sent}; got ${JSON.stringify(n) ?? 'nothing'}`)
    }
    if (n > this.acked) this.acked = n
  }

  /** The next heartbeat, once the client's acknowledgements show it keeps up (WebSocket). */
  private heartbeat(): void {
    if (this.ended) return
    const n = this.seq + 1
    const window = streamTuning.ackWindow
    if (this.sink.acks && this.acked < n - window) {
      return this.end({
        code: 'SLOW_CONSUMER',
        error: `heartbeat ${n - window} was not acknowledged within ${window} heartbeats; acknowledge each heartbeat with {"ack":seq}; the last acknowledged was ${this.acked || 'none'} (reconnect to resume)`,
      })
    }
    this.seq = n
    this.deliver([{ event: 'heartbeat', data: { at: isoInstant(this.o.now()), seq: n } }])
  }

  private refuse(error: string): void {
    this.deliver([{ event: 'error', data: { code: 'BAD_REQUEST', error } }])
  }

  /** One WebSocket per shard of `codes`: opened, told its new codes, or closed. */
  private async route(codes: readonly string[]): Promise<void> {
    const byShard = new Map<string, string[]>()
    for (const c of codes) {
      const name = shardOf(c)
      const list = byShard.get(name)
      if (list) list.push(c)
      else byShard.set(name, [c])
    }
    for (const [name, held] of this.shards) {
      if (byShard.has(name)) continue
      closeQuietly(held.ws)
      this.shards.delete(name)
    }
    await Promise.all(
      [...byShard].map(async ([name, list]) => {
        const held = this.shards.get(name)
        if (!held) return this.open(name, list)
        if (held.codes.join() === list.join()) return
        held.codes = list
        held.ws.send(JSON.stringify({ codes: list }))
      })
    )
  }

  private async open(name: string, codes: string[]): Promise<void> {
    const stub = this.o.env.STREAM_SHARD.getByName(name)
    const res = await stub.fetch(`https://stream-shard/${name}?codes=${codes.join(',')}`, { headers: { upgrade: 'websocket' } })
    const ws = res.webSocket
    if (!ws) throw new Error(`stream shard ${name} answered ${res.status} without a WebSocket`)
    ws.accept()
    if (this.ended) return closeQuietly(ws)
    this.shards.set(name, { ws, codes })
    ws.addEventListener('message', (e) => {
      let events: StreamEvent[]
      try {
        events = JSON.parse(typeof e.data === 'string' ? e.data : new TextDecoder().decode(e.data as ArrayBuffer)) as StreamEvent[]
      } catch {
        return
      }
      this.deliver(events.filter((ev) => this.wanted(ev)))
    })
    ws.addEventListener('close', () => {
      // A shard that went away (a deploy, an eviction): connect again with its codes.
      if (this.ended || this.shards.get(name)?.ws !== ws) return
      this.shards.delete(name)
      void this.route(this.codes).catch(() => this.end({ code: 'UPSTREAM_UNAVAILABLE', error: 'a quote object went away and could not be reached again; reconnect' }))
    })
  }

  /** Whether a shard's event goes to the client: quotes of codes still held, a status once per change (every shard sends it). */
  private wanted(ev: StreamEvent): boolean {
    if (ev.event === 'quote') return this.held.has((ev.data as { code: string }).code)
    if (ev.event === 'status') {
      const s = JSON.stringify(ev.data)
      if (s === this.lastStatus) return false
      this.lastStatus = s
    }
    return true
  }

  private deliver(events: readonly StreamEvent[]): void {
    if (this.ended || events.length === 0) return
    if (!this.sink.send(events)) this.end({ code: 'SLOW_CONSUMER', error: `the client fell more than ${streamTuning.slowBytes} bytes behind; the stream was closed (reconnect to resume)` })
  }

  /** The minute's work: the key re-read (revocation), the lease refreshed and the minutes started recorded. */
  private async recheck(): Promise<void> {
    if (this.ended) return
    try {
      const raw = await this.o.env.KEYS.get(kvKeyOf(this.o.keyHash), 'json')
      const record = KeyRecordSchema.safeParse(raw)
      if (!record.success || record.data.status !== 'active') return this.end({ code: 'KEY_INVALID', error: 'this API key has been revoked' })
      const started = Math.floor((Date.now() - this.openedAt) / 60_000) + 1
      const minutes = started - this.minutesRecorded
      this.minutesRecorded = started
      await this.guard().streamRefresh({ now: this.o.now(), id: this.o.id, minutes })
    } catch (e) {
      console.error('stream relay: recheck failed', e)
    }
  }

  private guard(): StreamGuard {
    return this.o.env.KEY_GUARD.getByName(this.o.keyHash) as unknown as StreamGuard
  }
}

function closeQuietly(ws: WebSocket): void {
  try {
    ws.close(1000, 'relay closed')
  } catch {
    // Already closed.
  }
}

const utf8 = new TextEncoder()

/** One event as Server-Sent Events text. */
const sseText = (ev: StreamEvent) => `event: ${ev.event}\ndata: ${JSON.stringify(ev.data)}\n\n`

/**
 * An SSE response body for a relay: a `TransformStream` whose unread bytes are counted. Past
 * `slowBytes` the send fails (the relay then ends); a write the client's side refuses (it went
 * away) ends the relay too.
 */
export function sseSink(relay: () => Relay): { sink: Sink; body: ReadableStream<Uint8Array> } {
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>()
  const writer = writable.getWriter()
  let unread = 0
  let closed = false
  const gone = () => {
    closed = true
    relay().end(null)
  }
  const write = (bytes: Uint8Array) => {
    unread += bytes.length
    writer.write(bytes).then(() => void (unread -= bytes.length), gone)
  }
  // The client went away (its side cancelled the body): the writable side errors.
  writer.closed.catch(() => {
    if (!closed) gone()
  })
  write(utf8.encode('retry: 3000\n\n'))
  const sink: Sink = {
    acks: false,
    send(events) {
      if (closed) return true
      if (unread > streamTuning.slowBytes) return false
      write(utf8.encode(events.map(sseText).join('')))
      return true
    },
    end(last) {
      if (closed) return
      closed = true
      if (last) writer.write(utf8.encode(sseText({ event: 'error', data: last }))).catch(() => undefined)
      writer.close().catch(() => undefined)
    },
  }
  return { sink, body: readable }
}

/** A WebSocket sink: each event one JSON text message `{"event":…,"data":…}`. */
export function webSocketSink(server: WebSocket): Sink {
  let closed = false
  return {
    acks: true,
    send(events) {
      if (closed) return true
      try {
        for (const ev of events) server.send(JSON.stringify(ev))
      } catch {
        closed = true
      }
      return true
    },
    end(last) {
      if (closed) return
      closed = true
      try {
        if (last) server.send(JSON.stringify({ event: 'error', data: last }))
        server.close(last ? CLOSE_CODES[last.code] : 1000, last?.code ?? 'closed')
      } catch {
        // Already closed.
      }
    },
  }
}
