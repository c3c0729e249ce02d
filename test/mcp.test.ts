import { env } from 'cloudflare:test'
import { exports } from 'cloudflare:workers'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/cfworker'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { TOOLS } from '../src/mcp/tools'
import { writeFactorTable } from '../src/store/factor-table'
import { call, getJson, makeKey, resetWorld } from './helpers'

const MCP_URL = 'http://127.0.0.1:8787/mcp'
const worker = (exports as unknown as { default: { fetch(r: Request): Promise<Response> } }).default
const bearer = (key: string) => ({ headers: { authorization: `Bearer ${key}` } })

const clients: Client[] = []

/** An MCP client (the SDK's own) whose HTTP requests go to the Worker, with `key` as its Bearer token (from `ip` when given). */
async function connect(key: string, ip?: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(MCP_URL), {
    requestInit: { headers: { authorization: `Bearer ${key}`, ...(ip ? { 'cf-connecting-ip': ip } : {}) } },
    fetch: (input, init) => worker.fetch(new Request(input, init)),
  })
  const client = new Client({ name: 'mcp-test', version: '1.0.0' }, { jsonSchemaValidator: new CfWorkerJsonSchemaValidator() })
  await client.connect(transport)
  clients.push(client)
  return client
}

type Result = { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: any }
const toolCall = async (client: Client, name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as Result
const textOf = (r: Result) => r.content.map((c) => c.text).join('\n')

/** A raw JSON-RPC POST to /mcp, as curl would send it. */
function rpc(body: unknown, headers: Record<string, string> = {}) {
  return worker.fetch(
    new Request(MCP_URL, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(body) })
  )
}

/** Today's usage of a key, after the settlements of its last calls (they run in waitUntil). */
async function usageOf(key: string) {
  await new Promise((r) => setTimeout(r, 50))
  return (await getJson('/v1/usage', bearer(key))).body.data
}

beforeEach(() => resetWorld())
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()))
})

describe('POST /mcp: session', () => {
  it('initializes statelessly and lists every tool of the table, with input schemas, in under 24,000 characters', async () => {
    const client = await connect(await makeKey('trial'))
    expect(client.getServerVersion()).toMatchObject({ name: 'a-share-market-api' })
    expect(client.getInstructions()).toContain('counts against your key')
    const { tools } = await client.listTools()
    expect(tools.map((t) => t.name)).toEqual(TOOLS.map((t) => t.name))
    for (const t of tools) {
      expect(t.description!.length).toBeGreaterThan(20)
      expect(t.inputSchema.type).toBe('object')
      expect(t.inputSchema.properties).toHaveProperty('limit')
      expect(t.annotations?.readOnlyHint).toBe(true)
    }
    expect(tools.find((t) => t.name === 'kline')!.inputSchema).toMatchObject({ required: ['code'], properties: { period: { enum: expect.arrayContaining(['day', 'm5']) } } })
    // The whole answer an agent's host puts in its context.
    const raw = await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, bearer(await makeKey('trial')).headers)
    const text = await raw.text()
    expect(raw.status).toBe(200)
    expect(JSON.parse(text).result.tools).toHaveLength(TOOLS.length)
    expect(text.length).toBeLessThan(24_000)
    // An integer's schema states no made-up bounds (±2^53−1); the route's 422 states the real range.
    expect(text).not.toContain('9007199254740991')
    console.log(`tools/list: ${text.length} characters`)
  })

  it('lets an MCP client in a browser send its headers (CORS preflight) and read the auth challenge', async () => {
    const res = await call('/mcp', { method: 'OPTIONS', headers: { origin: 'https://agent.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type, mcp-protocol-version' } })
    expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('mcp-protocol-version')
    const refused = await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' })
    expect(refused.headers.get('access-control-expose-headers')).toContain('WWW-Authenticate')
    const answered = await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, bearer(await makeKey('trial')).headers)
    expect(answered.status).toBe(200)
    expect(answered.headers.get('access-control-allow-origin')).toBe('*')
    expect(answered.headers.get('content-type')).toBe('application/json')
  })

  it('answers every verb but POST with 405 JSON and Allow: POST (no sessions, no event stream)', async () => {
    for (const method of ['GET', 'DELETE', 'HEAD', 'PUT', 'PATCH']) {
      const res = await call('/mcp', { method })
      expect(res.status).toBe(405)
      expect(res.headers.get('allow')).toBe('POST')
      if (method !== 'HEAD') expect(await res.json()).toMatchObject({ code: 'METHOD_NOT_ALLOWED' })
    }
  })
})

describe('POST /mcp: the protocol (answered by src/mcp/, held to it by the SDK client above)', () => {
  const initialize = (protocolVersion: string) => ({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion, capabilities: {}, clientInfo: { name: 'curl', version: '1' } } })

  it('initialize answers the client\'s protocol version when supported (2024-11-05), else the latest, with serverInfo and tools', async () => {
    const key = await makeKey('trial')
    const old = await (await rpc(initialize('2024-11-05'), bearer(key).headers)).json<any>()
    expect(old.result).toMatchObject({ protocolVersion: '2024-11-05', capabilities: { tools: {} }, serverInfo: { name: 'a-share-market-api' } })
    expect(old.result.instructions).toContain('counts against your key')
    const unknown = await (await rpc(initialize('2099-01-01'), bearer(key).headers)).json<any>()
    expect(unknown.result.protocolVersion).toBe('2025-11-25')
  })

  it('ping answers {}; a notification gets 202 with no body', async () => {
    const key = await makeKey('trial')
    expect(await (await rpc({ jsonrpc: '2.0', id: 'p', method: 'ping' }, bearer(key).headers)).json()).toEqual({ jsonrpc: '2.0', id: 'p', result: {} })
    const notified = await rpc({ jsonrpc: '2.0', method: 'notifications/initialized' }, bearer(key).headers)
    expect(notified.status).toBe(202)
    expect(await notified.text()).toBe('')
  })

  it('an unknown method: -32601; tools/call without a name: -32602 (HTTP 200, as JSON-RPC answers)', async () => {
    const key = await makeKey('trial')
    const unknown = await rpc({ jsonrpc: '2.0', id: 1, method: 'resources/list' }, bearer(key).headers)
    expect(unknown.status).toBe(200)
    expect(await unknown.json()).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'Method not found' } })
    const nameless = await (await rpc({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { arguments: { code: 'sh600519' } } }, bearer(key).headers)).json<any>()
    expect(nameless).toMatchObject({ id: 2, error: { code: -32602 } })
    expect(nameless.error.message).toContain('name')
  })

  it('refuses the HTTP request as the SDK transport does: 406 without both Accept types, 415, parse error 400, unsupported mcp-protocol-version 400', async () => {
    const key = await makeKey('trial')
    const ping = { jsonrpc: '2.0', id: 1, method: 'ping' }
    const notAcceptable = await rpc(ping, { ...bearer(key).headers, accept: 'application/json' })
    expect(notAcceptable.status).toBe(406)
    expect(await notAcceptable.json()).toMatchObject({ id: null, error: { code: -32000, message: expect.stringContaining('Not Acceptable') } })
    const unsupported = await rpc(ping, { ...bearer(key).headers, 'content-type': 'text/plain' })
    expect(unsupported.status).toBe(415)
    const garbled = await worker.fetch(new Request(MCP_URL, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...bearer(key).headers }, body: '{"jsonrpc":' }))
    expect(garbled.status).toBe(400)
    expect(await garbled.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: Invalid JSON' } })
    const wrongVersion = await rpc(ping, { ...bearer(key).headers, 'mcp-protocol-version': '2023-01-01' })
    expect(wrongVersion.status).toBe(400)
    expect(await wrongVersion.json()).toMatchObject({ error: { code: -32000, message: expect.stringContaining('Unsupported protocol version: 2023-01-01') } })
    // The middleware's headers ride on a refusal too.
    expect(wrongVersion.headers.get('access-control-allow-origin')).toBe('*')
  })
})

describe('POST /mcp: hostile input is echoed only as a bounded excerpt', () => {
  it('a 900 KB tool name, an 8 KB path, codes or argument name, a 100 KB id: answers of a few KB at most', async () => {
    const headers = bearer(await makeKey('pro')).headers
    const callOf = (name: string, args: Record<string, unknown>, id: string | number = 1) => rpc({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } }, headers)
    const bounded = async (res: Response) => {
      const text = await res.text()
      expect(text.length, text.slice(0, 3000)).toBeLessThan(4000)
      return JSON.parse(text)
    }
    const name = await bounded(await callOf('n'.repeat(900_000), {}))
    expect(name.result.isError).toBe(true)
    expect(name.result.content[0].text).toContain('… (900000 characters)')
    expect(name.result.structuredContent.error).toContain('… (900000 characters)')
    const path = await bounded(await callOf('call_endpoint', { path: `/v1/${'p'.repeat(8000)}` }))
    expect(path.result.isError).toBe(true)
    const badPath = await bounded(await callOf('call_endpoint', { path: `/x/${'p'.repeat(8000)}` }))
    expect(badPath.result.content[0].text).toContain('path must be a /v1 endpoint')
    const codes = await bounded(await callOf('technical', { codes: 'c'.repeat(8000) }))
    expect(codes.result.isError).toBe(true)
    const wrongType = await bounded(await callOf('quote', { code: ['c'.repeat(8000)] }))
    expect(wrongType.result.structuredContent.detail[0]).toMatchObject({ input_truncated: true, input_length: 8004 })
    const argName = await bounded(await callOf('search', { q: 'x', ['k'.repeat(8000)]: 1 }))
    expect(argName.result.content[0].text).toMatch(/^invalid argument: k{256}…: Unknown argument/)
    const id = await rpc({ jsonrpc: '2.0', id: 'i'.repeat(100_000), method: 'ping' }, headers)
    expect(id.status).toBe(400)
    expect(await bounded(id)).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: an id longer than 256 characters (100000); it is not echoed' } })
  })

  it('batches as JSON-RPC 2.0 answers them: [] is one Invalid Request error; a bad element gets its own error beside the answers', async () => {
    const headers = bearer(await makeKey('trial')).headers
    const empty = await rpc([], headers)
    expect(empty.status).toBe(400)
    expect(await empty.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: an empty batch' } })
    const mixed = await rpc([{ jsonrpc: '2.0', id: 1, method: 'ping' }, { id: 2 }, { jsonrpc: '2.0', method: 'notifications/initialized' }], headers)
    expect(mixed.status).toBe(200)
    expect(await mixed.json()).toEqual([
      { jsonrpc: '2.0', id: 1, result: {} },
      { jsonrpc: '2.0', id: 2, error: { code: -32600, message: 'Invalid Request: not a JSON-RPC 2.0 message' } },
    ])
  })
})

describe('POST /mcp: auth', () => {
  it('a Bearer header without exactly one key: 401 KEY_INVALID saying it is malformed, not KEY_REQUIRED', async () => {
    const key = await makeKey('trial')
    const res = await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { authorization: `Bearer ${key} ${key}` })
    expect(res.status).toBe(401)
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="mcp", error="invalid_request"')
    expect(await res.json()).toMatchObject({ code: 'KEY_INVALID', error: expect.stringContaining('Authorization header is malformed') })
  })

  it('without a key: 401, a JSON body saying how to get one, and a Bearer challenge', async () => {
    const res = await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' })
    expect(res.status).toBe(401)
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="mcp"')
    const body = await res.json<{ error: string; code: string }>()
    expect(body.code).toBe('KEY_REQUIRED')
    expect(body.error).toContain('Authorization: Bearer <API_KEY>')
    expect(body.error).toContain('npm run key -- create')
  })

  it('with an unknown key: 401 KEY_INVALID and error="invalid_token"; X-API-Key and ?key= work as on the HTTP API', async () => {
    const res = await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { authorization: 'Bearer mk_not-a-real-key' })
    expect(res.status).toBe(401)
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="mcp", error="invalid_token"')
    expect(await res.json()).toMatchObject({ code: 'KEY_INVALID' })
    const key = await makeKey('trial')
    expect((await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { 'x-api-key': key })).status).toBe(200)
    const viaQuery = await worker.fetch(
      new Request(`${MCP_URL}?key=${key}`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' })
    )
    expect(viaQuery.status).toBe(200)
  })
})

/** A small hs factor table, as the after-close job writes one (screen reads it; test/screen.test.ts tests the route). */
const writeSmallFactorTable = () =>
  writeFactorTable(env.STORE, {
    market: 'hs',
    date: '2026-11-20',
    built_at: '2026-11-20T08:00:00Z',
    codes: ['sh600000', 'sh600519', 'sz000001'],
    names: ['浦发银行', '贵州茅台', '平安银行'],
    columns: { ClosePrice: [8.12, 1520, 11.3], ChangePCT: [0.5, 0.76, -1.2], PE_TTM: [5.1, 21.4, 4.6] },
  })

/** One successful call of every tool: arguments, the endpoint that answers, and what the world needs first. */
const CALLS: Record<string, { args: Record<string, unknown>; endpoint: string; setup?: () => Promise<unknown> }> = {
  quote: { args: { code: 'sh600519', count: 3 }, endpoint: 'quote' },
  kline: { args: { code: 'sh600519', period: 'week', count: 4 }, endpoint: 'kline' },
  orderbook: { args: { code: 'sh600519' }, endpoint: 'orderbook' },
  technical: { args: { code: 'sh000001' }, endpoint: 'technical' },
  screen: { args: { expr: 'PE_TTM < 30', limit: 5 }, endpoint: 'screen', setup: writeSmallFactorTable },
  company: { args: { code: 'sh600519', topic: 'dividend' }, endpoint: 'dividend' },
  search: { args: { q: '茅台' }, endpoint: 'search' },
  market: { args: { view: 'hot', limit: 5 }, endpoint: 'hot' },
  trade_calendar: { args: { start: '2026-11-16', end: '2026-11-20' }, endpoint: 'trade-calendar' },
  research: { args: { limit: 3 }, endpoint: 'dehydrated' },
  call_endpoint: { args: { path: '/v1/macro', params: { region: 'cn', count: 2 } }, endpoint: 'macro' },
}

describe('POST /mcp: tools', () => {
  it('has a test call for every tool', () => {
    expect(Object.keys(CALLS).sort()).toEqual(TOOLS.map((t) => t.name).sort())
  })

  for (const [name, { args, endpoint, setup }] of Object.entries(CALLS)) {
    it(`${name}: answers the ${endpoint} route's data as a text table and structuredContent`, async () => {
      await setup?.()
      const client = await connect(await makeKey('pro'))
      const r = await toolCall(client, name, args)
      expect(r.isError, textOf(r)).toBeFalsy()
      expect(r.structuredContent).toMatchObject({ ok: true, endpoint })
      expect(textOf(r).split('\n')[0]).toMatch(new RegExp(`^${endpoint} \\(source `))
    })
  }

  it('answers exactly what the HTTP route answers (the same route runs), as CSV rows', async () => {
    const key = await makeKey('pro')
    const client = await connect(key)
    const r = await toolCall(client, 'kline', { code: 'sh600519', count: 5 })
    const http = (await getJson('/v1/kline?code=sh600519&count=5', bearer(key))).body
    expect(r.structuredContent.data).toEqual(http.data)
    const lines = textOf(r).split('\n')
    expect(lines[1]).toBe(Object.keys(http.data[0]).join(','))
    expect(lines[2]).toBe(Object.values(http.data[0]).join(','))
    expect(lines).toHaveLength(2 + http.data.length)
  })

  it('caps rows at limit in the text and in structuredContent, and says what was cut and how to narrow', async () => {
    const client = await connect(await makeKey('pro'))
    const r = await toolCall(client, 'kline', { code: 'sh600519', count: 50, limit: 10 })
    expect(r.structuredContent.data).toHaveLength(10)
    expect(r.structuredContent.rows_cut).toBe(40)
    const text = textOf(r)
    expect(text).toContain('(10 of 50 rows)')
    expect(text).toContain('40 rows cut (limit 10); narrow with')
    expect(text.split('\n').filter((l) => /^\d{4}-\d\d-\d\d,/.test(l))).toHaveLength(10)
  })

  it('shows a several-code answer as one table per code', async () => {
    const client = await connect(await makeKey('pro'))
    const r = await toolCall(client, 'quote', { code: 'sh600519,sz000001', count: 2 })
    const text = textOf(r)
    expect(text).toContain('## sh600519')
    expect(text).toContain('## sz000001')
  })
})

describe('POST /mcp: errors are tool results, never protocol errors', () => {
  it("a value the route refuses: isError with the route's 422 message naming the field", async () => {
    const key = await makeKey('pro')
    const client = await connect(key)
    const r = await toolCall(client, 'kline', { code: 'sh600519', count: 99999 })
    const http = (await getJson('/v1/kline?code=sh600519&count=99999', bearer(key))).body
    expect(r.isError).toBe(true)
    expect(textOf(r)).toContain(`count: ${http.detail[0].msg}`)
    expect(r.structuredContent).toMatchObject({ status: 422, detail: http.detail })
  })

  it('an argument of the wrong type or choice, a missing one, an unknown one: isError naming the field', async () => {
    const client = await connect(await makeKey('pro'))
    const wrongChoice = await toolCall(client, 'kline', { code: 'sh600519', period: 'm7' })
    expect(wrongChoice.isError).toBe(true)
    expect(textOf(wrongChoice)).toMatch(/^invalid argument: period: /)
    const wrongType = await toolCall(client, 'quote', { code: 'sh600519', count: 'many' })
    expect(textOf(wrongType)).toMatch(/^invalid argument: count: .*number.* \(got "many"\)/)
    const missing = await toolCall(client, 'company', { topic: 'finance' })
    expect(textOf(missing)).toBe('invalid argument: code: Field required')
    const unknown = await toolCall(client, 'search', { q: '茅台', market: 'sh' })
    expect(textOf(unknown)).toMatch(/^invalid argument: market: Unknown argument; search takes limit, q/)
  })

  it('call_endpoint refuses anything but a /v1 path, and an unknown tool is an error result', async () => {
    const client = await connect(await makeKey('pro'))
    for (const path of ['/mcp', '/__emulator/reset', 'https://example.com/v1/quote', '/v1/../__jobs']) {
      const r = await toolCall(client, 'call_endpoint', { path })
      expect(r.isError).toBe(true)
      expect(textOf(r)).toContain('path must be a /v1 endpoint')
    }
    const r = await toolCall(client, 'no_such_tool', {})
    expect(r.isError).toBe(true)
    expect(textOf(r)).toContain('no tool "no_such_tool"')
  })

  it('a trial key asking for a pro endpoint: isError with the HTTP 403 wording', async () => {
    const key = await makeKey('trial')
    const client = await connect(key)
    const r = await toolCall(client, 'orderbook', { code: 'sh600519', snapshot: true })
    const http = await getJson('/v1/snapshot?code=sh600519', bearer(key))
    expect(http.status).toBe(403)
    expect(r.isError).toBe(true)
    expect(textOf(r)).toBe(`HTTP 403 TIER_TOO_LOW: ${http.body.error}`)
    expect(r.structuredContent).toMatchObject({ status: 403, code: 'TIER_TOO_LOW', min_tier: 'pro' })
  })

  it('past the per-minute limit: isError RATE_LIMITED with retry_after, as the HTTP call is refused', async () => {
    const key = await makeKey('trial')
    let status = 200
    for (let i = 0; i < 40 && status === 200; i++) {
      const res = await call('/v1/kline?code=sh600519&count=1', bearer(key))
      status = res.status
      await res.text()
    }
    expect(status).toBe(429)
    const client = await connect(key)
    const r = await toolCall(client, 'kline', { code: 'sh600519', count: 1 })
    expect(r.isError).toBe(true)
    expect(textOf(r)).toMatch(/^HTTP 429 RATE_LIMITED: .* retry_after: \d+ s$/)
    expect(r.structuredContent).toMatchObject({ status: 429, code: 'RATE_LIMITED', retry_after: expect.any(Number) })
  })
})

describe('POST /mcp: the key\'s IP allow-list', () => {
  it('holds for tool calls: the call is made from the MCP caller\'s address', async () => {
    const key = await makeKey('unlimited')
    const set = await call('/v1/ip-whitelist?ips=198.51.100.7', { method: 'POST', headers: { authorization: `Bearer ${key}`, 'cf-connecting-ip': '198.51.100.7' } })
    expect(set.status).toBe(200)
    const allowed = await connect(key, '198.51.100.7')
    expect((await toolCall(allowed, 'kline', { code: 'sh600519', count: 1 })).isError).toBeFalsy()
    const elsewhere = await connect(key, '192.0.2.99')
    const r = await toolCall(elsewhere, 'kline', { code: 'sh600519', count: 1 })
    expect(r.isError).toBe(true)
    expect(r.structuredContent).toMatchObject({ status: 403, code: 'IP_NOT_ALLOWED', ip: '192.0.2.99' })
  })
})

describe('POST /mcp: usage', () => {
  it('counts a tool call exactly as its HTTP call, and nothing for /mcp itself or a refused call', async () => {
    const key = await makeKey('standard')
    const before = await usageOf(key)
    expect(before.endpoints).toEqual({})
    const client = await connect(key)
    await client.listTools()
    const mcp = await toolCall(client, 'kline', { code: 'sh600519', count: 2 })
    expect(mcp.isError).toBeFalsy()
    expect((await toolCall(client, 'kline', { code: 'sh600519', count: 99999 })).isError).toBe(true) // 422: not counted
    const afterMcp = await usageOf(key)
    expect(afterMcp.endpoints).toEqual({ kline: { units: 1, calls: 1 } })
    expect(afterMcp.minute.remaining).toBe(before.minute.remaining - 1)
    expect((await call('/v1/kline?code=sh600519&count=2', bearer(key))).status).toBe(200)
    const afterHttp = await usageOf(key)
    expect(afterHttp.endpoints).toEqual({ kline: { units: 2, calls: 2 } })
    expect(afterHttp.minute.remaining).toBe(before.minute.remaining - 2)
  })
})
