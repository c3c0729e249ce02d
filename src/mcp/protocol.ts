/**
 * The MCP methods a stateless, tools-only server answers: `initialize`, `ping`, `tools/list` and
 * `tools/call`; any other method is "Method not found", and notifications need no answer.
 *
 * We answer the protocol ourselves rather than through the MCP SDK's `Server` and its transport:
 * the Worker's script has a size budget (250 KB of gzip; docs/performance.md), and the SDK's server side builds
 * a zod schema of every message of the protocol at load, with its request engine and the
 * experimental tasks code (some 16 KB of gzip), for these four methods. The SDK's own client, in
 * test/mcp.test.ts, holds this module and src/mcp/transport.ts to the protocol.
 */
import type { ToolResult } from './format'
import { answer, ERROR_CODES, errorOf, isObject, RpcError, type JsonRpcRequest, type JsonRpcResponse, type Params } from './jsonrpc'

/**
 * The protocol versions spoken, newest first: the MCP SDK 1.32.2's `SUPPORTED_PROTOCOL_VERSIONS`
 * (its types.js), the versions its client negotiates.
 */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07']

/** The client's version when spoken here, else the latest (the client then decides whether to go on), as the SDK's server negotiates. */
const negotiatedVersion = (requested: string): string => (SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : SUPPORTED_PROTOCOL_VERSIONS[0]!)

/** A tool as `tools/list` describes it. */
export interface ToolDescription {
  name: string
  title?: string
  description?: string
  /** A JSON Schema of the arguments object. */
  inputSchema: { type: 'object'; [member: string]: unknown }
  annotations?: { readOnlyHint?: boolean }
}

/** What a tools-only MCP server offers. */
export interface ToolServer {
  info: { name: string; version: string }
  instructions: string
  tools: readonly ToolDescription[]
  /** Runs a tool; a failure of the tool is an `isError` result, not a thrown error. */
  call(name: string, args: Record<string, unknown>): Promise<ToolResult>
}

const invalidParams = (problem: string) => new RpcError(ERROR_CODES.invalidParams, `Invalid params: ${problem}`)

/** The first problem of `initialize` params (the members the SDK's client always sends), or null. */
function initializeProblem(params: Params): string | null {
  if (typeof params.protocolVersion !== 'string') return 'protocolVersion must be a string'
  if (!isObject(params.capabilities)) return 'capabilities must be an object'
  const info = params.clientInfo
  if (!isObject(info) || typeof info.name !== 'string' || typeof info.version !== 'string') return 'clientInfo must be an object with a name and a version'
  return null
}

/** Whether a request is a well-formed `initialize` (the transport lets it through without a protocol version header, and alone). */
export const isInitializeRequest = (request: JsonRpcRequest): boolean => request.method === 'initialize' && initializeProblem(request.params ?? {}) === null

type Method = (server: ToolServer, params: Params) => Record<string, unknown> | Promise<Record<string, unknown>>

/** The methods answered, by name. */
const METHODS = new Map<string, Method>([
  [
    'initialize',
    (server, params) => {
      const problem = initializeProblem(params)
      if (problem) throw invalidParams(problem)
      return { protocolVersion: negotiatedVersion(params.protocolVersion as string), capabilities: { tools: {} }, serverInfo: server.info, instructions: server.instructions }
    },
  ],
  ['ping', () => ({})],
  [
    'tools/list',
    (server, params) => {
      // One page holds every tool: a cursor is only checked.
      if (params.cursor !== undefined && typeof params.cursor !== 'string') throw invalidParams('cursor must be a string')
      return { tools: server.tools }
    },
  ],
  [
    'tools/call',
    (server, params) => {
      if (typeof params.name !== 'string') throw invalidParams('name must be a string (the tool to call)')
      if (params.arguments !== undefined && !isObject(params.arguments)) throw invalidParams('arguments must be an object')
      return server.call(params.name, params.arguments ?? {})
    },
  ],
])

/** The answer to one request. Never throws: an error thrown by a method is an error answer. */
export async function answerRequest(server: ToolServer, request: JsonRpcRequest): Promise<JsonRpcResponse> {
  const method = METHODS.get(request.method)
  if (!method) return errorOf(request.id, ERROR_CODES.methodNotFound, 'Method not found')
  return answer(request.id, () => method(server, request.params ?? {}))
}
