/**
 * Push quotes (`GET /v1/stream`, docs/architecture.md "Push quotes"): real SSE and WebSocket clients
 * against the Worker, its relays and the StreamShard objects, with the emulator's market clock and
 * short stream timings (PUT /__emulator/stream).
 */
import { env, runInDurableObject } from 'cloudflare:test'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { hashKey, kvKeyOf } from '../src/access/keys'
import { market } from '../src/emulator/market'
import { shardOf, type StreamShard } from '../src/features/stream/stream-shard'
import { call, fault, getJson, makeKey, resetWorld, SESSION_CLOCK } from './helpers'

/** A-share stocks listed well before the clock, in code order. */
const stocks = market.instruments().filter((i) => i.kind === 'stock' && ['sh', 'sz'].includes(i.prefix) && i.listDate < '2025-01-01').map((i) => i.code)

interface Ev {
  event: string
  data: any
}

/** A client's events as they arrive, and a way to wait for some. */
class Client {
  readonly events: Ev[] = []
  closed = false
  closeCode: number | null = null
  private wake: (() => void) | null = null
  constructor(readonly close: () => void) {}

  push(ev: Ev) {
    this.events.push(ev)
    this.wake?.()
  }

  end(code: number | null = null) {
    this.closed = true
    this.closeCode = code
    this.wake?.()
  }

  /** Waits until `test` holds of the events (or the connection ended), at most `ms`. */
  async until(test: (evs: Ev[]) => boolean, ms = 3_000): Promise<Ev[]> {
    const deadline = Date.now() + ms
    while (!test(this.events) && !this.closed && Date.now() < deadline) {
      await new Promise<void>((res) => {
        this.wake = res
        setTimeout(res, 50)
      })
    }
    return this.events
  }

  of(event: string): Ev[] {
    return this.events.filter((e) => e.event === event)
  }
}

const open: Client[] = []

async function sse(query: string, key?: string): Promise<Client> {
  const res = await call(`/v1/stream?${query}${key ? `&key=${key}` : ''}`, { headers: { accept: 'text/event-stream' } })
  expect(res.status, await (res.status === 200 ? '' : res.clone().text())).toBe(200)
  const reader = res.body!.getReader()
  const client = new Client(() => void reader.cancel().catch(() => undefined))
  open.push(client)
  void (async () => {
    const dec = new TextDecoder()
    let buf = ''
    try {
      for (;;) {
        const { done, value } = await reader.read()
        if (done) break
        buf += dec.decode(value, { stream: true })
        for (let k = buf.indexOf('\n\n'); k >= 0; k = buf.indexOf('\n\n')) {
          const block = buf.slice(0, k)
          buf = buf.slice(k + 2)
          const event = /^event: (.*)$/m.exec(block)?.[1]
          const data = /^data: (.*)$/m.exec(block)?.[1]
          if (event && data) client.push({ event, data: JSON.parse(data) })
        }
      }
    } catch {
      // Cancelled.
    }
    client.end()
  })()
  return client
}

/**
 * A WebSocket client. It acknowledges every heartbeat (`{"ack":seq}`), as a client must to stay
 * connected; `ack` false never does, a function only for the seqs it accepts.
 */
async function ws(query: string, key?: string, opts: { ack?: boolean | ((seq: number) => boolean) } = {}): Promise<{ client: Client; socket: WebSocket }> {
  const res = await call(`/v1/stream?${query}${key ? `&key=${key}` : ''}`, { headers: { upgrade: 'websocket' } })
  expect(res.status, res.status === 101 ? '' : await res.text()).toBe(101)
  const socket = res.webSocket!
  socket.accept()
  const client = new Client(() => socket.close(1000))
  open.push(client)
  const acks = opts.ack ?? true
  socket.addEventListener('message', (e) => {
    const ev = JSON.parse(e.data as string) as Ev
    client.push(ev)
    if (ev.event !== 'heartbeat' || client.closed || !(typeof acks === 'function' ? acks(ev.data.seq) : acks)) return
    try {
      socket.send(JSON.stringify({ ack: ev.data.seq }))
    } catch {
      // Closed meanwhile.
    }
  })
  socket.addEventListener('close', (e) => client.end(e.code))
  return { client, socket }
}

async function setClock(now: string | number) {
  await call('/__emulator/clock', { method: 'PUT', body: JSON.stringify({ now: new Date(now).toISOString() }), headers: { 'content-type': 'application/json' } })
}

async function quoteRequests(): Promise<number> {
  return (await getJson('/__emulator')).body.paths['qt.gtimg.cn/q='] ?? 0
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const at = (ms: number) => Date.parse(SESSION_CLOCK) + ms

/** Short cadence; heartbeats and the minute's recheck rare unless a test shortens them (see {@link tune}). */
const TUNING = { cadence_ms: 100, heartbeat_ms: 60_000, recheck_ms: 60_000 }

async function tune(t: Record<string, number>) {
  await call('/__emulator/stream', { method: 'PUT', body: JSON.stringify({ ...TUNING, ...t }), headers: { 'content-type': 'application/json' } })
}

beforeAll(async () => {
  await call('/__emulator/stream', { method: 'PUT', body: JSON.stringify(TUNING), headers: { 'content-type': 'application/json' } })
})
afterAll(async () => {
  await call('/__emulator/stream', { method: 'DELETE' })
})
beforeEach(async () => {
  await resetWorld()
  await tune({})
})
afterEach(async () => {
  for (const c of open.splice(0)) c.close()
  await sleep(50)
})

describe('GET /v1/stream', () => {
  it('SSE: the current state of every code first, then a change when the market clock moves', async () => {
    const codes = stocks.slice(0, 3)
    const c = await sse(`codes=${codes.join(',')}`)
    await c.until((e) => e.some((x) => x.event === 'status') && c.of('quote').length >= 3)
    const first = c.of('quote')
    expect(first.map((q) => q.data.code).sort()).toEqual([...codes].sort())
    expect(first[0].data).toMatchObject({ date: '2026-11-20', as_of: '2026-11-20T10:30:00+08:00', source: 'emulator:tencent' })
    expect(Object.keys(first[0].data).sort()).toEqual(['amount', 'as_of', 'code', 'date', 'high', 'last', 'low', 'open', 'source', 'turnover', 'volume'])
    expect(c.of('status')[0].data).toEqual({ market: 'cn', phase: 'session', next_change: '2026-11-20T11:30:00+08:00' })
    await setClock(at(60_000))
    await c.until(() => c.of('quote').length > 3)
    const change = c.of('quote').slice(3)
    expect(change.length).toBeGreaterThan(0)
    expect(change[0].data.as_of).toBe('2026-11-20T10:31:00+08:00')
  })

  it('WebSocket: initial state, subscribe and unsubscribe', async () => {
    const { client, socket } = await ws(`codes=${stocks[0]}`)
    await client.until(() => client.of('quote').length >= 1 && client.of('status').length >= 1)
    expect(client.of('quote')[0].data.code).toBe(stocks[0])
    socket.send(JSON.stringify({ subscribe: [stocks[1], stocks[2]] }))
    await client.until(() => client.of('quote').length >= 3)
    expect(client.of('quote').map((q) => q.data.code)).toEqual(expect.arrayContaining(stocks.slice(0, 3)))
    socket.send(JSON.stringify({ subscribe: ['xx123'] }))
    await client.until(() => client.of('error').length >= 1)
    expect(client.of('error')[0].data.code).toBe('BAD_REQUEST')
    socket.send(JSON.stringify({ unsubscribe: [stocks[0], stocks[1]] }))
    await sleep(100)
    const seen = client.events.length
    await setClock(at(60_000))
    await client.until(() => client.of('quote').length > 3)
    expect(client.events.slice(seen).filter((e) => e.event === 'quote').map((e) => e.data.code)).toEqual([stocks[2]])
  })

  it('fan-out: 50 subscribers on the same 50 symbols cause the upstream requests of 1, over the same span of market time', async () => {
    // 25 codes of each of two shards: every connection holds two shard sockets, each shard polls its 25.
    const codes = [...stocks.filter((c) => shardOf(c) === 'cn-0').slice(0, 25), ...stocks.filter((c) => shardOf(c) === 'cn-1').slice(0, 25)]
    const steps = 10
    /** Connects `n` subscribers (half WebSocket, half SSE), then moves the market clock 3 s at a time. */
    const run = async (n: number) => {
      await resetWorld()
      await tune({ cadence_ms: 50 })
      const started = Date.now()
      const keys = await Promise.all(Array.from({ length: Math.ceil(n / 20) }, () => makeKey('unlimited')))
      const clients = await Promise.all(
        Array.from({ length: n }, (_, k) => (k % 2 ? sse(`codes=${codes.join(',')}`, keys[Math.floor(k / 20)]) : ws(`codes=${codes.join(',')}`, keys[Math.floor(k / 20)]).then((w) => w.client)))
      )
      await Promise.all(clients.map((c) => c.until(() => new Set(c.of('quote').map((q) => q.data.code)).size === 50, 8_000)))
      expect(clients.every((c) => new Set(c.of('quote').map((q) => q.data.code)).size === 50)).toBe(true)
      const connected = Date.now() - started
      const initial = await quoteRequests()
      // 30 s of session time, 3 s at a time.
      for (let k = 1; k <= steps; k++) {
        const before = await quoteRequests()
        await setClock(at(k * 3_000))
        // Both shards poll within a cadence (50 ms here); the first refreshes every line.
        await sleep(55)
        for (let t = Date.now(); (await quoteRequests()) === before && Date.now() - t < 1_000; ) await sleep(20)
      }
      const stepped = Date.now() - started
      // One change everyone sees (a minute on): how long until each subscriber has it.
      const polled = (await quoteRequests()) - initial
      const seen = clients.map((c) => c.of('quote').length)
      const t0 = Date.now()
      await setClock(at(steps * 3_000 + 60_000))
      const delays = await Promise.all(clients.map((c, j) => c.until(() => c.of('quote').length > seen[j], 2_000).then(() => Date.now() - t0)))
      for (const c of clients) c.close()
      open.length = 0
      delays.sort((a, b) => a - b)
      return { connected, stepped, initial, polled, p50: delays[Math.floor(delays.length / 2)], p99: delays[Math.floor(delays.length * 0.99)] }
    }
    const one = await run(1)
    const many = await run(50)
    console.log(`stream fan-out over ${steps} cadences: 1 subscriber ${JSON.stringify(one)}; 50 subscribers ${JSON.stringify(many)}`)
    expect(one.polled).toBeGreaterThan(0)
    expect(one.polled).toBeLessThanOrEqual(steps)
    expect(many.polled).toBe(one.polled)
    // Every subscriber got the change within the cadence (50 ms here) plus 1 s.
    expect(many.p99).toBeLessThan(1_100)
  })

  it('limits: a key is required, a transport, at most the tier\'s symbols and connections; usage shows the stream', async () => {
    const anon = await getJson('/v1/stream?codes=sh600519', { anonymous: true, headers: { accept: 'text/event-stream' } })
    expect(anon.status).toBe(401)
    expect(anon.body.code).toBe('KEY_REQUIRED')
    const trial = await makeKey('trial')
    const plain = await getJson(`/v1/stream?codes=sh600519&key=${trial}`)
    expect(plain.status).toBe(422)
    expect(plain.body.detail[0]).toMatchObject({ loc: ['header', 'accept'], msg: expect.stringContaining('text/event-stream') })
    const many = await getJson(`/v1/stream?codes=${stocks.slice(0, 21).join(',')}&key=${trial}`, { headers: { accept: 'text/event-stream' } })
    expect(many.status).toBe(422)
    expect(many.body.detail[0]).toMatchObject({ loc: ['query', 'codes'], msg: 'a trial connection may hold at most 20 symbols, got 21' })
    const bad = await getJson(`/v1/stream?codes=sh600519,hk00700&key=${trial}`, { headers: { accept: 'text/event-stream' } })
    expect(bad.status).toBe(422)
    expect(bad.body.detail[0].msg).toContain('A-share')

    await tune({ heartbeat_ms: 50 })
    const first = await sse(`codes=${stocks.slice(0, 20).join(',')}`, trial)
    await first.until(() => first.of('quote').length >= 20)
    // A heartbeat's `at` is an instant in the one form (Beijing, to the second); the emulator's clock stands at 10:30.
    await first.until(() => first.of('heartbeat').length >= 1)
    expect(first.of('heartbeat')[0].data.at).toMatch(/^2026-11-20T10:3\d:\d\d\+08:00$/)
    // SSE heartbeats are numbered as a WebSocket's are (nothing to acknowledge: the relay counts unread bytes).
    expect(first.of('heartbeat')[0].data.seq).toBe(1)
    const second = await getJson(`/v1/stream?codes=sh600519&key=${trial}`, { headers: { upgrade: 'websocket' } })
    expect(second.status).toBe(429)
    expect(second.body).toMatchObject({ code: 'STREAM_LIMIT', limit: 1 })
    const usage = (await getJson(`/v1/usage?key=${trial}`)).body.data
    expect(usage.stream).toEqual({ open: 1, max_connections: 1, max_symbols: 20, minutes_today: 1 })
    // The opening call is counted (the refused one is not).
    expect(usage.endpoints.stream).toEqual({ units: 1, calls: 1 })
    // Closing frees the slot (the relay notices an SSE client gone at its next write: heartbeats every 50 ms here).
    first.close()
    for (let t = Date.now(); (await getJson(`/v1/usage?key=${trial}`)).body.data.stream.open > 0 && Date.now() - t < 2_000; ) await sleep(20)
    const again = await ws(`codes=sh600519`, trial)
    await again.client.until(() => again.client.of('quote').length >= 1)
    expect(again.client.of('quote')).toHaveLength(1)
  })

  it('revocation ends a stream within the recheck, with KEY_INVALID and close code 1008', async () => {
    await tune({ recheck_ms: 100 })
    const key = await makeKey('standard')
    const { client } = await ws(`codes=${stocks[0]}`, key)
    await client.until(() => client.of('quote').length >= 1)
    const k = kvKeyOf(await hashKey(key))
    await env.KEYS.put(k, JSON.stringify({ ...JSON.parse((await env.KEYS.get(k))!), status: 'revoked' }))
    const t0 = Date.now()
    await client.until(() => client.closed, 2_000)
    expect(Date.now() - t0).toBeLessThan(1_000)
    expect(client.of('error').at(-1)?.data).toEqual({ code: 'KEY_INVALID', error: 'this API key has been revoked' })
    expect(client.closeCode).toBe(1008)
  })

  it('a slow SSE subscriber is dropped with SLOW_CONSUMER once it is too far behind', async () => {
    await tune({ heartbeat_ms: 5, slow_bytes: 2_000 })
    const key = await makeKey('pro')
    const res = await call(`/v1/stream?codes=${stocks[0]}&key=${key}`, { headers: { accept: 'text/event-stream' } })
    expect(res.status).toBe(200)
    // Not read for a while: heartbeats pile up past 2,000 bytes.
    await sleep(400)
    const text = await res.text()
    const events = [...text.matchAll(/^event: (.*)\ndata: (.*)$/gm)].map((m) => ({ event: m[1], data: JSON.parse(m[2]) }))
    expect(events.at(-1)).toMatchObject({ event: 'error', data: { code: 'SLOW_CONSUMER' } })
    expect(text.length).toBeLessThan(4_000)
    expect((await getJson(`/v1/usage?key=${key}`)).body.data.stream.open).toBe(0)
  })

  it('a WebSocket subscriber that stops acknowledging heartbeats is dropped with SLOW_CONSUMER and close code 1013 after the window (2)', async () => {
    await tune({ heartbeat_ms: 50 })
    const key = await makeKey('pro')
    const [silent, once] = await Promise.all([ws(`codes=${stocks[0]}`, key, { ack: false }), ws(`codes=${stocks[1]}`, key, { ack: (seq) => seq === 1 })])
    await Promise.all([silent.client.until(() => silent.client.closed), once.client.until(() => once.client.closed)])
    // About to send heartbeat n, the relay wants an ack of n − 2 or later: the silent client sees 2, the one that acked 1 sees 3.
    expect(silent.client.of('heartbeat').map((h) => h.data.seq)).toEqual([1, 2])
    expect(once.client.of('heartbeat').map((h) => h.data.seq)).toEqual([1, 2, 3])
    expect(silent.client.events.at(-1)).toEqual({
      event: 'error',
      data: { code: 'SLOW_CONSUMER', error: 'heartbeat 1 was not acknowledged within 2 heartbeats; acknowledge each heartbeat with {"ack":seq}; the last acknowledged was none (reconnect to resume)' },
    })
    expect(once.client.events.at(-1)?.data).toMatchObject({ code: 'SLOW_CONSUMER', error: expect.stringContaining('the last acknowledged was 1 ') })
    expect([silent.client.closeCode, once.client.closeCode]).toEqual([1013, 1013])
    // Both leases given back.
    for (let t = Date.now(); (await getJson(`/v1/usage?key=${key}`)).body.data.stream.open > 0 && Date.now() - t < 2_000; ) await sleep(20)
    expect((await getJson(`/v1/usage?key=${key}`)).body.data.stream.open).toBe(0)
  })

  it('a WebSocket subscriber that acknowledges every heartbeat stays open, however many heartbeats, and keeps receiving quotes', async () => {
    await tune({ heartbeat_ms: 50 })
    const { client } = await ws(`codes=${stocks[0]}`)
    await client.until(() => client.of('heartbeat').length >= 5)
    await setClock(at(60_000))
    await client.until(() => client.of('heartbeat').length >= 10 && client.of('quote').length >= 2)
    expect(client.closed).toBe(false)
    expect(client.of('error')).toEqual([])
    expect(client.of('heartbeat').map((h) => h.data.seq)).toEqual(Array.from({ length: client.of('heartbeat').length }, (_, k) => k + 1))
    // The change of the moved clock arrived after heartbeat 5, well past the window.
    expect(client.of('quote').at(-1)?.data.as_of).toBe('2026-11-20T10:31:00+08:00')
  })

  it('a bad ack gets BAD_REQUEST and does not count; the stream stays open', async () => {
    await tune({ heartbeat_ms: 50 })
    const key = await makeKey('pro')
    const [good, silent] = await Promise.all([ws(`codes=${stocks[0]}`, key), ws(`codes=${stocks[1]}`, key, { ack: false })])
    await good.client.until(() => good.client.of('heartbeat').length >= 1)
    const bad = [{ ack: 0 }, { ack: -1 }, { ack: 1.5 }, { ack: '1' }, { ack: null }, { ack: 1_000_000 }]
    for (const m of bad) good.socket.send(JSON.stringify(m))
    // An ack of a heartbeat not yet sent is refused: it does not keep a silent client connected.
    silent.socket.send(JSON.stringify({ ack: 1_000_000 }))
    await good.client.until(() => good.client.of('error').length >= bad.length)
    expect(good.client.of('error').map((e) => e.data.code)).toEqual(bad.map(() => 'BAD_REQUEST'))
    expect(good.client.of('error')[0].data.error).toMatch(/^ack takes the seq of a heartbeat sent, a positive integer up to \d+; got 0$/)
    await silent.client.until(() => silent.client.closed)
    expect(silent.client.of('error').map((e) => e.data.code)).toEqual(['BAD_REQUEST', 'SLOW_CONSUMER'])
    expect(silent.client.closeCode).toBe(1013)
    const seen = good.client.of('heartbeat').length
    await good.client.until(() => good.client.of('heartbeat').length >= seen + 4)
    expect(good.client.closed).toBe(false)
    expect(good.client.of('error')).toHaveLength(bad.length)
  })

  it('market closed: the last session\'s state once, status, then heartbeats only; the shard polls nothing', async () => {
    await resetWorld('2026-11-21T10:30:00+08:00') // a Saturday
    await tune({ heartbeat_ms: 50 })
    const codes = stocks.slice(0, 3)
    const c = await sse(`codes=${codes.join(',')}`)
    await c.until(() => c.of('status').length >= 1 && c.of('quote').length >= 3)
    expect(c.of('quote').map((q) => q.data.date)).toEqual(['2026-11-20', '2026-11-20', '2026-11-20'])
    expect(c.of('status')[0].data).toEqual({ market: 'cn', phase: 'closed', next_change: '2026-11-23T09:15:00+08:00' })
    const seen = c.events.length
    const shard = env.STREAM_SHARD.getByName(shardOf(codes[0]))
    const before = await runInDurableObject(shard, (o: StreamShard) => o.stats())
    const requests = await quoteRequests()
    await sleep(400)
    expect(new Set(c.events.slice(seen).map((e) => e.event))).toEqual(new Set(['heartbeat']))
    expect(await quoteRequests()).toBe(requests)
    const after = await runInDurableObject(shard, async (o: StreamShard, state) => ({ ...o.stats(), alarm: await state.storage.getAlarm() }))
    expect(after.polls).toBe(before.polls)
    // One alarm, at the next phase change (Monday 09:15 Beijing, some 46.75 h of market time away).
    expect(after.alarm! - Date.now()).toBeGreaterThan(46 * 3_600_000)
  })

  it('the market opening and closing: status at each change, polls only while it moves', async () => {
    await resetWorld('2026-11-21T10:30:00+08:00') // a Saturday
    await tune({ phase_check_ms: 100 })
    const codes = stocks.slice(0, 2)
    const c = await sse(`codes=${codes.join(',')}`)
    await c.until(() => c.of('status').length >= 1 && c.of('quote').length >= 2)
    expect(c.of('status')[0].data.phase).toBe('closed')
    await setClock('2026-11-23T09:31:00+08:00') // Monday, in session
    const today = () => new Set(c.of('quote').filter((q) => q.data.date === '2026-11-23').map((q) => q.data.code))
    await c.until(() => c.of('status').length >= 2 && today().size === 2)
    expect(c.of('status')[1].data).toEqual({ market: 'cn', phase: 'session', next_change: '2026-11-23T11:30:00+08:00' })
    expect([...today()].sort()).toEqual([...codes].sort())
    await setClock('2026-11-23T15:00:05+08:00')
    await c.until(() => c.of('status').length >= 3)
    expect(c.of('status')[2].data).toEqual({ market: 'cn', phase: 'closed', next_change: '2026-11-24T09:15:00+08:00' })
    const shard = env.STREAM_SHARD.getByName(shardOf(codes[0]))
    const polls = (await runInDurableObject(shard, (o: StreamShard) => o.stats())).polls
    await sleep(300)
    expect((await runInDurableObject(shard, (o: StreamShard) => o.stats())).polls).toBe(polls)
  })

  it('a faulted Tencent: the stream keeps serving from the next channel, and says so in source', async () => {
    const c = await sse(`codes=${stocks.slice(0, 2).join(',')}`)
    await c.until(() => c.of('quote').length >= 2)
    expect(c.of('quote')[0].data.source).toBe('emulator:tencent')
    await fault('tencent', 'http')
    await setClock(at(60_000))
    // A poll already in flight when the fault was set may still land from Tencent; after it,
    // each code's changes come from Eastmoney.
    const fromEastmoney = (code: string) => c.of('quote').slice(2).some((q) => q.data.code === code && q.data.source === 'emulator:eastmoney')
    await c.until(() => stocks.slice(0, 2).every(fromEastmoney))
    expect(stocks.slice(0, 2).filter((code) => !fromEastmoney(code))).toEqual([])
    for (const code of stocks.slice(0, 2)) {
      const after = c.of('quote').slice(2).filter((q) => q.data.code === code).map((q) => q.data.source)
      expect(after.slice(after.indexOf('emulator:eastmoney'))).toEqual(after.slice(after.indexOf('emulator:eastmoney')).map(() => 'emulator:eastmoney'))
    }
  })
})
