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

  it('400 invalid request for JSON that is not a message', async () => {
    for (const body of [42, { jsonrpc: '1.0', id: 1, method: 'ping' }]) {
      expect(await refusal(await post(body))).toEqual({ status: 400, code: -32600, message: 'Invalid Request: not a JSON-RPC 2.0 message' })
    }
  })

  it('an id longer than 256 characters is not echoed: Invalid Request with id null, and nothing runs', async () => {
    const long = 'i'.repeat(100_000)
    const res = await post(ping(long))
    expect(await refusal(res)).toEqual({ status: 400, code: -32600, message: 'Invalid Request: an id longer than 256 characters (100000); it is not echoed' })
    expect(await (await post(ping('i'.repeat(256)))).json()).toMatchObject({ id: 'i'.repeat(256) })
  })

  it('an unsupported mcp-protocol-version is quoted as a bounded excerpt', async () => {
    const res = await post(ping(), { 'mcp-protocol-version': 'v'.repeat(8000) })
    const { message } = await refusal(res)
    expect(message.length).toBeLessThan(500)
    expect(message).toContain('… (8000 characters)')
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
    for (const body of [initialized, { jsonrpc: '2.0', id: 9, result: {} }, [initialized, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 3 } }]]) {
      const res = await post(body)
      expect(res.status, JSON.stringify(body)).toBe(202)
      expect(await res.text()).toBe('')
      expect(handed).toEqual([])
    }
  })

  it("a batch: an array of its requests' answers in order, even when it holds one request (JSON-RPC 2.0, Batch)", async () => {
    const several = await post([ping(1), initialized, { jsonrpc: '2.0', id: 2, method: 'tools/list' }])
    expect(await several.json()).toEqual([
      { jsonrpc: '2.0', id: 1, result: { method: 'ping' } },
      { jsonrpc: '2.0', id: 2, result: { method: 'tools/list' } },
    ])
    expect(await (await post([initialized, ping(5)])).json()).toEqual([{ jsonrpc: '2.0', id: 5, result: { method: 'ping' } }])
  })

  it('an empty batch: one Invalid Request error with id null (JSON-RPC 2.0), not 202', async () => {
    expect(await refusal(await post([]))).toEqual({ status: 400, code: -32600, message: 'Invalid Request: an empty batch' })
  })

  it('a batch with elements that are not messages: each its own Invalid Request error (its id when readable), the valid ones their answers, notifications none', async () => {
    const res = await post([ping(1), { id: 2 }, 42, initialized, { jsonrpc: '2.0', id: 'x'.repeat(300), method: 'ping' }, ping(3)])
    expect(res.status).toBe(200)
    const invalid = (id: unknown, message = 'Invalid Request: not a JSON-RPC 2.0 message') => ({ jsonrpc: '2.0', id, error: { code: -32600, message } })
    expect(await res.json()).toEqual([
      { jsonrpc: '2.0', id: 1, result: { method: 'ping' } },
      invalid(2),
      invalid(null),
      invalid(null, 'Invalid Request: an id longer than 256 characters (300); it is not echoed'),
      { jsonrpc: '2.0', id: 3, result: { method: 'ping' } },
    ])
    expect(handed.map((r) => r.id)).toEqual([1, 3])
    // Only elements that are not messages: an array of their errors.
    expect(await (await post([1, 2])).json()).toEqual([invalid(null), invalid(null)])
  })

  it('400 for a batch of more than 100 messages', async () => {
    expect((await post(Array.from({ length: 100 }, (_, i) => ping(i)))).status).toBe(200)
    expect(await refusal(await post(Array.from({ length: 101 }, (_, i) => ping(i))))).toEqual({ status: 400, code: -32600, message: 'Invalid Request: Batch must not exceed 100 messages' })
  })

  it('400 for initialize with any other message', async () => {
    expect(await refusal(await post([initialize, ping()]))).toEqual({ status: 400, code: -32600, message: 'Invalid Request: Only one initialization request is allowed' })
    expect(await (await post([initialize])).json()).toMatchObject([{ id: 0, result: { method: 'initialize' } }])
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
