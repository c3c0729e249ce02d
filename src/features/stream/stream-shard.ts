import { DurableObject } from 'cloudflare:workers'
import { quoteCadenceMs } from '../../channels/cadence'
import type { Quote } from '../../domain/bar'
import { isoInstant, quoteAsOf } from '../../domain/instant'
import type { Instrument } from '../../domain/instrument'
import { isMoving, streamPhase, type StreamPhase } from '../../domain/stream-phase'
import { parseSymbol } from '../../domain/symbols'
import { toBarRow, type BarRow } from '../../http/format'
import { upstreamFailure } from '../../http/outcome'
import { RequestScope, runInScope } from '../../runtime/request-scope'
import { streamTuning } from '../../runtime/stream-tuning'
import { isolateServices } from '../../services/isolate'

/**
 * Push quotes' fan-out object (docs/architecture.md, "Push quotes"): one per shard of the code
 * space. Every relay (one per client connection, src/features/stream/relay.ts) whose codes fall in
 * this shard holds one WebSocket to it, accepted with the Hibernation API: the socket's codes live
 * in its attachment, so an object with only idle sockets can leave memory and costs nothing.
 *
 * - **Polling.** Only while it has sockets and the A-share market is moving (`auction`, `session`:
 *   src/domain/stream-phase.ts), by alarm, every source cadence (3 s). One poll is one call of
 *   `services.market.liveQuotes` for the union of its sockets' codes: the isolate's batched line
 *   pool (src/channels/live-lines.ts), the same channel failover as `/v1/quote` (`source` names the
 *   channel that answered), shared with the keyed quote calls of the isolate.
 * - **Changes only.** It keeps the last state sent per code and sends a socket only the codes of
 *   its own whose fields changed. A new socket first gets the current state of each of its codes
 *   (polled at once when the object has none yet), then the market's `status`.
 * - **Outside sessions** no poll runs: one alarm waits for the next phase change, which sends
 *   `status` to every socket (and starts the polls again when the market opens).
 * - **Memory.** The last states are not stored: an object that left memory rebuilds them from its
 *   next poll, and its sockets then get every code once more (the same values they hold).
 *
 * Messages to a relay are JSON arrays of events `{event, data}`, one array per poll.
 */
export class StreamShard extends DurableObject<Env> {
  /** The last state sent of each code any socket holds. */
  private readonly last = new Map<string, QuoteData>()
  /** The phase last announced to the sockets. */
  private phase: StreamPhase | null = null
  /** A failure already announced (cleared by the next good poll). */
  private failing = false
  /** Polls made by this object since it was loaded (diagnostics, tests). */
  private polls = 0
  /**
   * Each socket's codes as read from its attachment, and their union: reading every attachment at
   * every poll grew an idle poll's CPU with the sockets held (docs/performance.md, "Push quotes").
   * Memory only: an object woken from hibernation reads the attachments again.
   */
  private readonly held = new WeakMap<WebSocket, string[]>()
  private union: string[] | null = null

  override async fetch(request: Request): Promise<Response> {
    if (request.headers.get('upgrade')?.toLowerCase() !== 'websocket') return new Response('expects Upgrade: websocket', { status: 426 })
    const codes = codesOf(new URL(request.url).searchParams.get('codes'))
    const pair = new WebSocketPair()
    const server = pair[1]
    this.ctx.acceptWebSocket(server)
    this.hold(server, codes)
    void this.greet(server, codes).catch((e) => console.error('stream shard: greeting failed', e))
    return new Response(null, { status: 101, webSocket: pair[0] })
  }

  /** A relay's new code list (`{"codes":[…]}`): the codes it did not hold yet get their state. */
  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    let codes: string[]
    try {
      const m = JSON.parse(typeof message === 'string' ? message : new TextDecoder().decode(message)) as { codes?: unknown }
      if (!Array.isArray(m.codes)) return
      codes = codesOf(m.codes.join(','))
    } catch {
      return
    }
    const before = new Set(this.codesOf(ws))
    this.hold(ws, codes)
    const added = codes.filter((c) => !before.has(c))
    if (added.length) await this.greet(ws, added, false)
  }

  override async webSocketClose(ws: WebSocket, code: number, reason: string): Promise<void> {
    this.union = null
    try {
      // 1005, 1006 and 1015 are reported, never sent.
      ws.close(code === 1005 || code === 1006 || code === 1015 ? 1000 : code, reason)
    } catch {
      // Already closed.
    }
    await this.idleCheck(ws)
  }

  override async webSocketError(ws: WebSocket): Promise<void> {
    this.union = null
    await this.idleCheck(ws)
  }

  /** The timer: a poll while the market moves, a status at each phase change; nothing once no socket is left. */
  override async alarm(): Promise<void> {
    if (this.sockets().length === 0) return this.forget()
    const now = isolateServices().now()
    const { phase } = streamPhase(now)
    this.announce(phase, now)
    if (isMoving(phase)) await this.poll(this.unionCodes())
    await this.arm(true)
  }

  /** What the object holds and has done (tests, diagnostics). */
  stats(): { sockets: number; codes: number; polls: number; phase: StreamPhase | null } {
    return { sockets: this.sockets().length, codes: this.unionCodes().length, polls: this.polls, phase: this.phase }
  }

  /** A socket's first events: the current state of `codes` (polled now where the object has none), then the status. */
  private async greet(ws: WebSocket, codes: readonly string[], withStatus = true): Promise<void> {
    const missing = codes.filter((c) => !this.last.has(c))
    if (missing.length) await this.poll(missing, ws)
    const events: StreamEvent[] = []
    for (const c of codes) {
      const q = this.last.get(c)
      if (q) events.push({ event: 'quote', data: q })
    }
    const now = isolateServices().now()
    if (withStatus) events.push(statusEvent(now))
    send(ws, events)
    await this.arm(false)
  }

  /**
   * One upstream call for `codes`: every code whose fields changed is sent to each socket holding
   * it (but `greeting`, which gets its whole state next).
   */
  private async poll(codes: readonly string[], greeting?: WebSocket): Promise<void> {
    if (codes.length === 0) return
    const services = isolateServices()
    this.polls++
    const instruments: Instrument[] = codes.map((c) => parseSymbol(c))
    // A scope of its own (src/runtime/request-scope.ts): the upstream budgets apply as to any call.
    const scope = new RequestScope(services.deadlineMs)
    scope.budgetObjects = this.env.HOST_BUDGET
    const r = await runInScope(scope, () => services.market.liveQuotes(instruments)).finally(() => scope.release())
    const changed = new Map<string, QuoteData>()
    const byCode = new Map(instruments.map((i) => [i.code, i]))
    for (const [code, { quote, channel }] of r.quotes) {
      const instrument = byCode.get(code)
      if (!instrument) continue
      const data = quoteData(quote, instrument, services.sourcePrefix + channel)
      const old = this.last.get(code)
      if (!old || !sameFields(old, data)) changed.set(code, data)
      this.last.set(code, data)
    }
    if (r.failed.length && !this.failing) {
      this.failing = true
      const f = upstreamFailure(r.failed[0].attempts, 'quotes')
      this.broadcast(() => [{ event: 'error', data: { code: f.code, error: f.error } }], greeting)
    } else if (!r.failed.length) this.failing = false
    if (changed.size) this.broadcast((held) => held.filter((c) => changed.has(c)).map((c) => ({ event: 'quote', data: changed.get(c)! })), greeting)
  }

  /** Sends each socket (but `except`) the events `pick` makes of its codes. */
  private broadcast(pick: (codes: string[]) => StreamEvent[], except?: WebSocket): void {
    for (const ws of this.sockets()) {
      if (ws === except) continue
      send(ws, pick(this.codesOf(ws)))
    }
  }

  /** A status event to every socket when the phase differs from the one last announced. */
  private announce(phase: StreamPhase, now: number): void {
    if (phase === this.phase) return
    const first = this.phase === null
    this.phase = phase
    // An object just loaded greeted its sockets with the status already (or lost it with its memory): no repeat.
    if (!first) this.broadcast(() => [statusEvent(now)])
  }

  /**
   * The next alarm: a cadence away while the market moves, else at the next phase change. `replace`
   * sets it whatever is set (from the alarm itself); otherwise only when none is set.
   */
  private async arm(replace: boolean): Promise<void> {
    if (!replace && (await this.ctx.storage.getAlarm()) !== null) return
    const now = isolateServices().now()
    const { phase, nextChange } = streamPhase(now)
    this.phase ??= phase
    const untilChange = Math.max(1_000, nextChange - now)
    const { phaseCheckMs } = streamTuning
    const wait = isMoving(phase) ? (streamTuning.cadenceMs ?? quoteCadenceMs('sh000001', now)) : phaseCheckMs !== null ? Math.min(untilChange, phaseCheckMs) : untilChange
    await this.ctx.storage.setAlarm(Date.now() + wait)
  }

  /** After a socket closed: with none left, the object forgets its codes and stops its alarm. */
  private async idleCheck(closed: WebSocket): Promise<void> {
    if (this.sockets().some((ws) => ws !== closed)) return
    await this.forget()
  }

  private async forget(): Promise<void> {
    this.last.clear()
    this.phase = null
    this.failing = false
    await this.ctx.storage.deleteAlarm()
  }

  private sockets(): WebSocket[] {
    return this.ctx.getWebSockets().filter((ws) => ws.readyState === WebSocket.OPEN)
  }

  private unionCodes(): string[] {
    if (this.union) return this.union
    const all = new Set<string>()
    for (const ws of this.sockets()) for (const c of this.codesOf(ws)) all.add(c)
    return (this.union = [...all])
  }

  /** Sets a socket's codes: in its attachment (which outlives hibernation) and in memory. */
  private hold(ws: WebSocket, codes: string[]): void {
    ws.serializeAttachment({ codes } satisfies Attachment)
    this.held.set(ws, codes)
    this.union = null
  }

  private codesOf(ws: WebSocket): string[] {
    let codes = this.held.get(ws)
    if (!codes) this.held.set(ws, (codes = attachmentOf(ws).codes))
    return codes
  }
}

/** What a socket's attachment holds. */
interface Attachment {
  codes: string[]
}

const attachmentOf = (ws: WebSocket): Attachment => (ws.deserializeAttachment() as Attachment | null) ?? { codes: [] }

/** A `quote` event's data: `/v1/quote`'s latest bar (8 strings) with the code, its time stamp and source. */
export type QuoteData = BarRow & { code: string; as_of: string; source: string }

/** An event as a relay forwards it. */
export interface StreamEvent {
  event: 'quote' | 'status' | 'error' | 'heartbeat'
  data: unknown
}

function quoteData(q: Quote, instrument: Instrument, source: string): QuoteData {
  const row = toBarRow({ date: q.date, open: q.open, close: q.last, high: q.high, low: q.low, volume: q.volume, amount: q.amount, turnover: q.turnover }, instrument.kind)
  return { code: instrument.code, ...row, as_of: quoteAsOf(instrument.prefix, q.date, q.time), source }
}

const sameFields = (a: QuoteData, b: QuoteData) =>
  a.date === b.date && a.open === b.open && a.last === b.last && a.high === b.high && a.low === b.low && a.volume === b.volume && a.amount === b.amount && a.turnover === b.turnover

/** A `status` event at `now`: the market's phase and when it next changes (an instant, Beijing). */
function statusEvent(now: number): StreamEvent {
  const { phase, nextChange } = streamPhase(now)
  return { event: 'status', data: { market: 'cn', phase, next_change: isoInstant(nextChange) } }
}

function send(ws: WebSocket, events: StreamEvent[]): void {
  if (events.length === 0) return
  try {
    ws.send(JSON.stringify(events))
  } catch {
    // A socket closing meanwhile: its close handler cleans up.
  }
}

const codesOf = (raw: string | null): string[] => [...new Set((raw ?? '').split(',').map((c) => c.trim()).filter(Boolean))]

/**
 * Shards per market family, sized for the codes watched at once, not the whole universe: 16 A-share
 * shards poll one batched request each (Tencent takes 60 codes) while fewer than some 960 codes are
 * watched; past that a shard's poll goes out in more batches of 60, still one call into the poller.
 * More shards would send emptier batches (more upstream requests for the same codes) and cost every
 * client a socket per shard its codes touch: a 50-symbol connection touches about 15 of 16 shards,
 * 41 of 128.
 */
const SHARDS = { cn: 16 } as const

/** The shard of a code: its market family and a hash of the code (FNV-1a, stable across deploys) modulo the family's shard count. */
export function shardOf(code: string): string {
  let h = 0x811c9dc5
  for (let k = 0; k < code.length; k++) h = Math.imul(h ^ code.charCodeAt(k), 0x01000193) >>> 0
  return `cn-${h % SHARDS.cn}`
}
