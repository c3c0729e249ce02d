/**
 * JSON-RPC 2.0 (https://www.jsonrpc.org/specification) as MCP uses it: the four kinds of message,
 * how one is recognised, and the envelopes of an answer. A message is accepted exactly when the MCP
 * SDK 1.32.2's `JSONRPCMessageSchema` accepts it (its types.js): `jsonrpc: "2.0"`, no member beyond
 * its kind's own, an id that is a string (of at most 256 characters: ours) or an integer, params
 * (when present) an object.
 */
import { ECHO_MAX_CHARS } from '../http/validation'

export type RequestId = string | number
export type Params = Record<string, unknown>

export interface JsonRpcRequest {
  jsonrpc: '2.0'
  id: RequestId
  method: string
  params?: Params
}

interface JsonRpcResult {
  jsonrpc: '2.0'
  id: RequestId
  result: Record<string, unknown>
}

export interface JsonRpcError {
  jsonrpc: '2.0'
  /** null when the request's id could not be read (a refusal of the whole HTTP request). */
  id: RequestId | null
  error: { code: number; message: string }
}

export type JsonRpcResponse = JsonRpcResult | JsonRpcError

/**
 * A message by kind. Only a request asks for an answer: a notification asks none of a stateless
 * server, and a client's response answers a request this server never makes; both are only recognised.
 */
export type JsonRpcMessage = { kind: 'request'; request: JsonRpcRequest } | { kind: 'notification' | 'response' }

/** The error codes of JSON-RPC 2.0, and -32000 (its range for the server's own) that MCP's HTTP transport refuses with. */
export const ERROR_CODES = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  serverError: -32000,
} as const

/** What a method throws to answer with its own code (invalid params, say); anything else thrown is an internal error. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string
  ) {
    super(message)
  }
}

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * A string id is answered with only up to the bound every echo keeps (ECHO_MAX_CHARS, 256,
 * src/http/validation.ts): an answer must carry its request's id, and a 100 KB one is not worth
 * repeating. A longer one makes the message invalid (answered with id null), where the MCP SDK would
 * take it.
 */
const isRequestId = (v: unknown): v is RequestId => (typeof v === 'string' && v.length <= ECHO_MAX_CHARS) || Number.isInteger(v)

/** The id of a value that is not a valid message, when it can be read and echoed (JSON-RPC answers null otherwise). */
export const readableId = (value: unknown): RequestId | null => (isObject(value) && isRequestId(value.id) ? value.id : null)

/** Only the members listed, each present one passing its check. */
function hasOnly(o: Record<string, unknown>, members: Record<string, (v: unknown) => boolean>): boolean {
  return Object.keys(o).every((key) => Object.hasOwn(members, key) && members[key]!(o[key]))
}

/** `_meta` of params: an object, whose progress token (when given) is a string (of any length: never echoed here) or an integer. */
const isMeta = (v: unknown) => isObject(v) && (v.progressToken === undefined || typeof v.progressToken === 'string' || Number.isInteger(v.progressToken))
const isParams = (v: unknown) => isObject(v) && (v._meta === undefined || isMeta(v._meta))
const isErrorObject = (v: unknown) => isObject(v) && Number.isInteger(v.code) && typeof v.message === 'string'

const VERSION = { jsonrpc: (v: unknown) => v === '2.0' }
const REQUEST = { ...VERSION, id: isRequestId, method: (v: unknown) => typeof v === 'string', params: isParams }
const NOTIFICATION = { ...VERSION, method: REQUEST.method, params: isParams }
const RESULT = { ...VERSION, id: isRequestId, result: isParams }
const ERROR = { ...VERSION, id: isRequestId, error: isErrorObject }

/** The message `value` is, or null when it is none (an invalid request). */
export function parseMessage(value: unknown): JsonRpcMessage | null {
  if (!isObject(value) || value.jsonrpc !== '2.0') return null
  if ('method' in value) {
    if ('id' in value) return hasOnly(value, REQUEST) ? { kind: 'request', request: value as unknown as JsonRpcRequest } : null
    return hasOnly(value, NOTIFICATION) ? { kind: 'notification' } : null
  }
  if ('result' in value) return 'id' in value && hasOnly(value, RESULT) ? { kind: 'response' } : null
  if ('error' in value) return hasOnly(value, ERROR) ? { kind: 'response' } : null
  return null
}

const resultOf = (id: RequestId, result: Record<string, unknown>): JsonRpcResult => ({ jsonrpc: '2.0', id, result })

export const errorOf = (id: RequestId | null, code: number, message: string): JsonRpcError => ({ jsonrpc: '2.0', id, error: { code, message } })

/** The answer to the request `id`: what `run` returns, or the error it throws (an RpcError's code, else an internal error). Never throws. */
export async function answer(id: RequestId, run: () => Record<string, unknown> | Promise<Record<string, unknown>>): Promise<JsonRpcResponse> {
  try {
    return resultOf(id, await run())
  } catch (error) {
    const code = error instanceof RpcError ? error.code : ERROR_CODES.internalError
    const message = error instanceof Error && error.message ? error.message : 'Internal error'
    return errorOf(id, code, message)
  }
}
