import { describe, expect, it } from 'vitest'
import { answer, ERROR_CODES, parseMessage, RpcError } from './jsonrpc'

describe('parseMessage: what is a JSON-RPC 2.0 message (as the MCP SDK 1.32.2 accepts one)', () => {
  it('tells a request, a notification and a response apart', () => {
    expect(parseMessage({ jsonrpc: '2.0', id: 1, method: 'ping' })).toEqual({ kind: 'request', request: { jsonrpc: '2.0', id: 1, method: 'ping' } })
    expect(parseMessage({ jsonrpc: '2.0', id: 'a', method: 'tools/call', params: { name: 'q', _meta: { progressToken: 7 } } })).toMatchObject({ kind: 'request' })
    expect(parseMessage({ jsonrpc: '2.0', method: 'notifications/initialized' })).toEqual({ kind: 'notification' })
    expect(parseMessage({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } })).toEqual({ kind: 'notification' })
    expect(parseMessage({ jsonrpc: '2.0', id: 9, result: {} })).toEqual({ kind: 'response' })
    expect(parseMessage({ jsonrpc: '2.0', id: 9, error: { code: 1, message: 'x' } })).toEqual({ kind: 'response' })
    expect(parseMessage({ jsonrpc: '2.0', error: { code: 1, message: 'x' } })).toEqual({ kind: 'response' })
  })

  it('refuses anything else: another version, a fractional or null id, extra members, params that are not an object', () => {
    for (const value of [
      42,
      'ping',
      [],
      null,
      { jsonrpc: '1.0', id: 1, method: 'ping' },
      { id: 1, method: 'ping' },
      { jsonrpc: '2.0', id: 1.5, method: 'ping' },
      { jsonrpc: '2.0', id: null, method: 'ping' },
      { jsonrpc: '2.0', id: 1, method: 7 },
      { jsonrpc: '2.0', id: 1, method: 'ping', extra: 1 },
      { jsonrpc: '2.0', id: 1, method: 'ping', toString: 1 },
      { jsonrpc: '2.0', method: 'ping', extra: 1 },
      { jsonrpc: '2.0', id: 1, method: 'ping', params: [] },
      { jsonrpc: '2.0', id: 1, method: 'ping', params: null },
      { jsonrpc: '2.0', id: 1, method: 'ping', params: { _meta: 'x' } },
      { jsonrpc: '2.0', id: 1, method: 'ping', params: { _meta: { progressToken: {} } } },
      { jsonrpc: '2.0', result: {} },
      { jsonrpc: '2.0', id: 1, result: 'ok' },
      { jsonrpc: '2.0', id: null, error: { code: 1, message: 'x' } },
      { jsonrpc: '2.0', id: 1, error: { code: 1.5, message: 'x' } },
      { jsonrpc: '2.0', id: 1, method: 'ping', result: {} },
      { jsonrpc: '2.0' },
    ]) {
      expect(parseMessage(value), JSON.stringify(value)).toBeNull()
    }
  })
})

describe('answer: a request answered by what its handler returns or throws', () => {
  it('wraps a result with the request id', async () => {
    expect(await answer('a', () => ({ tools: [] }))).toEqual({ jsonrpc: '2.0', id: 'a', result: { tools: [] } })
    expect(await answer(3, async () => ({}))).toEqual({ jsonrpc: '2.0', id: 3, result: {} })
  })

  it('answers an RpcError with its code, and anything else thrown as an internal error with its message', async () => {
    const invalid = () => {
      throw new RpcError(ERROR_CODES.invalidParams, 'Invalid params: name must be a string')
    }
    expect(await answer(1, invalid)).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32602, message: 'Invalid params: name must be a string' },
    })
    expect(await answer(2, () => Promise.reject(new Error('kaboom')))).toEqual({ jsonrpc: '2.0', id: 2, error: { code: -32603, message: 'kaboom' } })
    expect(await answer(3, () => Promise.reject('not an Error'))).toEqual({ jsonrpc: '2.0', id: 3, error: { code: -32603, message: 'Internal error' } })
  })
})

describe('ids', () => {
  it('a string id of at most 256 characters is a request; a longer one makes the message invalid', () => {
    expect(parseMessage({ jsonrpc: '2.0', id: 'i'.repeat(256), method: 'ping' })).toMatchObject({ kind: 'request' })
    expect(parseMessage({ jsonrpc: '2.0', id: 'i'.repeat(257), method: 'ping' })).toBeNull()
  })
})
