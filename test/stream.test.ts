/**
 * Push quotes (`GET /v1/stream`, docs/architecture.md "Push quotes"): real SSE and WebSocket clients
 * against the Worker, its relays and the StreamShard objects, with the emulator's market clock and
 * short stream timings (PUT /__emulator/stream).
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { market } from '../src/emulator/market'
import { call, getJson, makeKey, resetWorld, SESSION_CLOCK } from './helpers'

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

async function ws(query: string, key?: string): Promise<{ client: Client; socket: WebSocket }> {
  const res = await call(`/v1/stream?${query}${key ? `&key=${key}` : ''}`, { headers: { upgrade: 'websocket' } })
  expect(res.status, res.status === 101 ? '' : await res.text()).toBe(101)
  const socket = res.webSocket!
  socket.accept()
  const client = new Client(() => socket.close(1000))
  open.push(client)
  socket.addEventListener('message', (e) => client.push(JSON.parse(e.data as string)))
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
    expect(first[0].data).toMatchObject({ date: '2026-11-20', as_of: '2026-11-20 10:30:00', source: 'emulator:tencent' })
    expect(Object.keys(first[0].data).sort()).toEqual(['amount', 'as_of', 'code', 'date', 'high', 'last', 'low', 'open', 'source', 'turnover', 'volume'])
    expect(c.of('status')[0].data).toEqual({ market: 'cn', phase: 'session', next_change: '2026-11-20T11:30:00+08:00' })
    await setClock(at(60_000))
    await c.until(() => c.of('quote').length > 3)
    const change = c.of('quote').slice(3)
    expect(change.length).toBeGreaterThan(0)
    expect(change[0].data.as_of).toBe('2026-11-20 10:31:00')
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
    const codes = stocks.slice(0, 50)
    const steps = 10
    /** Connects `n` subscribers (half WebSocket, half SSE), then moves the market clock 3 s at a time. */
    const run = async (n: number) => {
      await resetWorld()
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
        // Every shard polls within a cadence (100 ms); the first refreshes every line.
        await sleep(110)
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
    // Every subscriber got each change within the cadence (100 ms here) plus 1 s.
    expect(many.p99).toBeLessThan(1_100)
  })
})
