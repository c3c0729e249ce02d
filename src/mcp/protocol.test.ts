import { describe, expect, it } from 'vitest'
import type { JsonRpcRequest } from './jsonrpc'
import { answerRequest, isInitializeRequest, SUPPORTED_PROTOCOL_VERSIONS, type ToolServer } from './protocol'

/** A server of one tool, `echo`, that answers with its arguments; `fail` throws as a broken tool would. */
const calls: { name: string; args: Record<string, unknown> }[] = []
const server: ToolServer = {
  info: { name: 'test-server', version: '9.9.9' },
  instructions: 'How to use it.',
  tools: [{ name: 'echo', inputSchema: { type: 'object' } }],
  call: async (name, args) => {
    if (name === 'fail') throw new Error('the tool broke')
    calls.push({ name, args })
    return { content: [{ type: 'text', text: JSON.stringify(args) }] }
  },
}

const request = (method: string, params?: Record<string, unknown>): JsonRpcRequest => ({ jsonrpc: '2.0', id: 7, method, ...(params ? { params } : {}) })
const initialize = (protocolVersion: string) => request('initialize', { protocolVersion, capabilities: {}, clientInfo: { name: 'client', version: '1.0.0' } })

describe('initialize', () => {
  it("answers the client's protocol version when spoken here, with the server's identity, tools capability and instructions", async () => {
    for (const version of SUPPORTED_PROTOCOL_VERSIONS) {
      expect(await answerRequest(server, initialize(version))).toEqual({
        jsonrpc: '2.0',
        id: 7,
        result: { protocolVersion: version, capabilities: { tools: {} }, serverInfo: { name: 'test-server', version: '9.9.9' }, instructions: 'How to use it.' },
      })
    }
  })

  it('answers the latest version it speaks to a client asking for one it does not', async () => {
    const answer = await answerRequest(server, initialize('2031-01-01'))
    expect(answer).toMatchObject({ result: { protocolVersion: '2025-11-25' } })
    expect(SUPPORTED_PROTOCOL_VERSIONS[0]).toBe('2025-11-25')
  })

  it('refuses params without a version, capabilities or client info as invalid params', async () => {
    expect(await answerRequest(server, request('initialize', { protocolVersion: '2025-06-18' }))).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: { code: -32602, message: 'Invalid params: capabilities must be an object' },
    })
    expect(await answerRequest(server, request('initialize'))).toMatchObject({ error: { code: -32602, message: 'Invalid params: protocolVersion must be a string' } })
    expect(await answerRequest(server, request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c' } }))).toMatchObject({ error: { code: -32602 } })
  })

  it('isInitializeRequest: a well-formed initialize only', () => {
    expect(isInitializeRequest(initialize('2024-11-05'))).toBe(true)
    expect(isInitializeRequest(request('initialize', { protocolVersion: '2024-11-05' }))).toBe(false)
    expect(isInitializeRequest(request('ping'))).toBe(false)
  })
})

describe('ping, tools/list, tools/call', () => {
  it('ping answers an empty result', async () => {
    expect(await answerRequest(server, request('ping'))).toEqual({ jsonrpc: '2.0', id: 7, result: {} })
  })

  it("tools/list answers the server's tools; a cursor must be a string", async () => {
    expect(await answerRequest(server, request('tools/list'))).toEqual({ jsonrpc: '2.0', id: 7, result: { tools: server.tools } })
    expect(await answerRequest(server, request('tools/list', { cursor: 'next' }))).toMatchObject({ result: { tools: server.tools } })
    expect(await answerRequest(server, request('tools/list', { cursor: 5 }))).toMatchObject({ error: { code: -32602, message: 'Invalid params: cursor must be a string' } })
  })

  it('tools/call runs the named tool with its arguments (none: an empty object)', async () => {
    calls.length = 0
    expect(await answerRequest(server, request('tools/call', { name: 'echo', arguments: { q: 1 } }))).toEqual({ jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: '{"q":1}' }] } })
    await answerRequest(server, request('tools/call', { name: 'echo' }))
    expect(calls).toEqual([
      { name: 'echo', args: { q: 1 } },
      { name: 'echo', args: {} },
    ])
  })

  it('tools/call without a name, or with arguments that are not an object: invalid params, and no tool runs', async () => {
    calls.length = 0
    expect(await answerRequest(server, request('tools/call', {}))).toEqual({ jsonrpc: '2.0', id: 7, error: { code: -32602, message: 'Invalid params: name must be a string (the tool to call)' } })
    expect(await answerRequest(server, request('tools/call'))).toMatchObject({ error: { code: -32602 } })
    expect(await answerRequest(server, request('tools/call', { name: 'echo', arguments: [1] }))).toMatchObject({ error: { code: -32602, message: 'Invalid params: arguments must be an object' } })
    expect(calls).toEqual([])
  })

  it('an error thrown by a tool is an internal error answer, never a thrown one', async () => {
    expect(await answerRequest(server, request('tools/call', { name: 'fail' }))).toEqual({ jsonrpc: '2.0', id: 7, error: { code: -32603, message: 'the tool broke' } })
  })
})

describe('other methods', () => {
  it('answers Method not found, including for names of Object.prototype', async () => {
    for (const method of ['resources/list', 'prompts/list', 'logging/setLevel', 'toString', 'constructor']) {
      expect(await answerRequest(server, request(method))).toEqual({ jsonrpc: '2.0', id: 7, error: { code: -32601, message: 'Method not found' } })
    }
  })
})
