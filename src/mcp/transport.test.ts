import { describe, expect, it } from 'vitest'
import type { JsonRpcRequest, JsonRpcResponse } from './jsonrpc'
import { handlePost } from './transport'

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }

/** The requests handed on, and a handler that answers each with its method and id. */
let handed: JsonRpcRequest[] = []
const echo = async (request: JsonRpcRequest): Promise<JsonRpcResponse> => {
  handed.push(request)
  return { jsonrpc: '2.0', id: request.id, result: { method: request.method } }
}

/** POSTs `body` (JSON unless a string is given as it is) to the transport. */
function post(body: unknown, headers: Record<string, string> = {}) {
  handed = []
  const text = typeof body === 'string' ? body : JSON.stringify(body)
  return handlePost(new Request('http://x/mcp', { method: 'POST', headers: { ...HEADERS, ...headers }, body: text }), echo)
}

/** A refusal's status and JSON-RPC error, and that no request was handed on. */
async function refusal(res: Response) {
  expect(handed).toEqual([])
  expect(res.headers.get('content-type')).toBe('application/json')
  const body = await res.json<{ jsonrpc: string; id: unknown; error: { code: number; message: string } }>()
  expect(body).toMatchObject({ jsonrpc: '2.0', id: null })
  return { status: res.status, ...body.error }
}

const ping = (id: number | string = 1) => ({ jsonrpc: '2.0', id, method: 'ping' })
const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' }
const initialize = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } }

describe('the HTTP request', () => {
  it('406 unless Accept lists both application/json and text/event-stream', async () => {
    for (const accept of ['application/json', 'text/event-stream', '*/*']) {
      expect(await refusal(await post(ping(), { accept }))).toEqual({ status: 406, code: -32000, message: 'Not Acceptable: Client must accept both application/json and text/event-stream' })
    }
  })

  it('415 unless the Content-Type is application/json (parameters and case aside)', async () => {
    expect(await refusal(await post(ping(), { 'content-type': 'text/plain' }))).toEqual({ status: 415, code: -32000, message: 'Unsupported Media Type: Content-Type must be application/json' })
    expect(await refusal(await post(ping(), { 'content-type': 'text/plain; a=application/json' }))).toMatchObject({ status: 415 })
    expect((await post(ping(), { 'content-type': 'Application/JSON; charset=utf-8' })).status).toBe(200)
  })

  it('413 past 4 MiB, declared or sent', async () => {
    expect(await refusal(await post(ping(), { 'content-length': String(4 * 1024 * 1024 + 1) }))).toEqual({ status: 413, code: -32000, message: 'Payload Too Large: Request body must not exceed 4194304 bytes' })
    const padded = JSON.stringify({ ...ping(), params: { pad: 'x'.repeat(4 * 1024 * 1024) } })
    expect(await refusal(await post(padded))).toMatchObject({ status: 413 })
  })

  it('400 parse error for a body that is not JSON', async () => {
    for (const body of ['{not json', '']) {
      expect(await refusal(await post(body))).toEqual({ status: 400, code: -32700, message: 'Parse error: Invalid JSON' })
    }
  })

  it('400 invalid request for JSON that is not a message, or a batch holding one', async () => {
    for (const body of [42, { jsonrpc: '1.0', id: 1, method: 'ping' }, [ping(), { id: 2 }]]) {
      expect(await refusal(await post(body))).toEqual({ status: 400, code: -32600, message: 'Invalid Request: not a JSON-RPC 2.0 message' })
    }
  })
})

describe('messages and batches', () => {
  it('answers one request with its answer, as JSON', async () => {
    const res = await post(ping('a'))
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/json')
    expect(await res.json()).toEqual({ jsonrpc: '2.0', id: 'a', result: { method: 'ping' } })
  })

  it('202 with no body for notifications and responses only; nothing is handed on', async () => {
    for (const body of [initialized, { jsonrpc: '2.0', id: 9, result: {} }, [initialized, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 3 } }], []]) {
      const res = await post(body)
      expect(res.status, JSON.stringify(body)).toBe(202)
      expect(await res.text()).toBe('')
      expect(handed).toEqual([])
    }
  })

  it("a batch: an array of its requests' answers in order, or the one answer alone when it holds one request", async () => {
    const several = await post([ping(1), initialized, { jsonrpc: '2.0', id: 2, method: 'tools/list' }])
    expect(await several.json()).toEqual([
      { jsonrpc: '2.0', id: 1, result: { method: 'ping' } },
      { jsonrpc: '2.0', id: 2, result: { method: 'tools/list' } },
    ])
    expect(await (await post([initialized, ping(5)])).json()).toEqual({ jsonrpc: '2.0', id: 5, result: { method: 'ping' } })
  })

  it('400 for a batch of more than 100 messages', async () => {
    expect((await post(Array.from({ length: 100 }, (_, i) => ping(i)))).status).toBe(200)
    expect(await refusal(await post(Array.from({ length: 101 }, (_, i) => ping(i))))).toEqual({ status: 400, code: -32600, message: 'Invalid Request: Batch must not exceed 100 messages' })
  })

  it('400 for initialize with any other message', async () => {
    expect(await refusal(await post([initialize, ping()]))).toEqual({ status: 400, code: -32600, message: 'Invalid Request: Only one initialization request is allowed' })
    expect(await (await post([initialize])).json()).toMatchObject({ id: 0, result: { method: 'initialize' } })
  })
})

describe('the mcp-protocol-version header', () => {
  it('400 when it names a version not spoken here, for any message but initialize', async () => {
    const message = 'Bad Request: Unsupported protocol version: 1999-01-01 (supported versions: 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05, 2024-10-07)'
    expect(await refusal(await post(ping(), { 'mcp-protocol-version': '1999-01-01' }))).toEqual({ status: 400, code: -32000, message })
    expect(await refusal(await post(initialized, { 'mcp-protocol-version': '1999-01-01' }))).toEqual({ status: 400, code: -32000, message })
    expect((await post(initialize, { 'mcp-protocol-version': '1999-01-01' })).status).toBe(200)
  })

  it('passes a version spoken here, and its absence', async () => {
    expect((await post(ping(), { 'mcp-protocol-version': '2024-11-05' })).status).toBe(200)
    expect((await post(ping())).status).toBe(200)
  })
})
