/**
 * The MCP server of one request (stateless: a fresh server per POST /mcp): the tools of the table in
 * src/mcp/tools.ts as `tools/list` describes them, and `tools/call` dispatched as the tool's `/v1`
 * request and answered as a compact table. src/mcp/protocol.ts answers the protocol around it.
 *
 * The input schemas are converted with the zod already in the bundle, and a bad argument gets the
 * same FastAPI-style issue (field, message, input) as the route's 422.
 */
import { toJSONSchema } from 'zod/v4'
import { z } from 'zod'
import { fromZodIssues, quotedExcerpt, validationBody } from '../http/validation'
import { dispatch, routeRequest, type AppFetch } from './dispatch'
import { errorResult, toolResult, type ToolResult } from './format'
import type { ToolDescription, ToolServer } from './protocol'
import { DEFAULT_ROW_LIMIT, limitArg, TOOLS, type ToolSpec } from './tools'

const INSTRUCTIONS =
  'Market data for Chinese A-shares (with HK, US, ETFs, futures, forex). Codes carry a market prefix (sh600519, sz000001, hk00700, usAAPL); ' +
  'search finds one. Each tool call is the /v1 HTTP call it makes and counts against your key as that call does. ' +
  'Answers are CSV tables of at most `limit` rows; structuredContent holds the JSON.'

/** What a tool call needs from the request that carried it. */
export interface CallContext {
  /** The application's fetch, bound to this request's bindings and execution context. */
  fetch: AppFetch
  /** The POST /mcp request (its URL and client address). */
  request: Request
  /** The caller's API key. */
  key: string
}

/** A tool's argument schema: its own fields and the shared `limit`, nothing else (an unknown argument is named in the error). */
const argumentsOf = (spec: ToolSpec) => z.object({ limit: limitArg, ...spec.input }).strict()

/**
 * zod writes an integer without bounds as ±2^53−1 (`minimum: -9007199254740991`): noise in an agent's
 * context that says nothing (the route's 422 states the real range), so those bounds are dropped.
 */
function withoutSafeIntegerBounds(node: unknown): void {
  if (typeof node !== 'object' || node === null) return
  const o = node as Record<string, unknown>
  if (o.minimum === Number.MIN_SAFE_INTEGER) delete o.minimum
  if (o.maximum === Number.MAX_SAFE_INTEGER) delete o.maximum
  for (const v of Object.values(o)) withoutSafeIntegerBounds(v)
}

/** The tools as `tools/list` describes them, converted once per isolate. */
const described = new Map<string, { spec: ToolSpec; schema: z.ZodType; tool: ToolDescription }>()
for (const spec of TOOLS) {
  const schema = argumentsOf(spec)
  const { $schema: _, ...inputSchema } = toJSONSchema(schema, { io: 'input' }) as ToolDescription['inputSchema'] & { $schema?: string }
  withoutSafeIntegerBounds(inputSchema)
  described.set(spec.name, { spec, schema, tool: { name: spec.name, title: spec.title, description: spec.description, inputSchema, annotations: { readOnlyHint: true } } })
}

const TOOL_DESCRIPTIONS = [...described.values()].map((d) => d.tool)

/** The server of one POST /mcp: its tool calls run as `call`'s caller. */
export function createMcpServer(version: string, call: CallContext): ToolServer {
  return {
    info: { name: 'a-share-market-api', version },
    instructions: INSTRUCTIONS,
    tools: TOOL_DESCRIPTIONS,
    call: (name, args) => callTool(call, name, args),
  }
}

type Issue = z.core.$ZodIssue

/** An unknown argument as an issue of its own name (zod reports them together, without a path). */
function namedIssues(issue: Issue, spec: ToolSpec): Issue[] {
  if (issue.code !== 'unrecognized_keys') return [issue]
  const known = ['limit', ...Object.keys(spec.input)].join(', ')
  return issue.keys.map((key) => ({ ...issue, path: [key], message: `Unknown argument; ${spec.name} takes ${known}` }))
}

/** One tool call: its arguments checked, its request dispatched, its answer formatted. Never throws. */
async function callTool(call: CallContext, name: string, args: Record<string, unknown>): Promise<ToolResult> {
  const entry = described.get(name)
  // The name is echoed as every input is, a bounded excerpt (src/http/validation.ts), once in the text and once in structuredContent.
  if (!entry) return errorResult({ status: 404, body: { error: `no tool ${quotedExcerpt(name)}; tools/list names them (call_endpoint reaches any GET /v1 endpoint)`, code: 'NOT_FOUND' } }, 'tool')
  const parsed = entry.schema.safeParse(args)
  if (!parsed.success) return errorResult({ status: 422, body: validationBody(fromZodIssues(parsed.error.issues.flatMap((i) => namedIssues(i, entry.spec)), 'body', args)) }, 'tool')
  const valid = parsed.data as Parameters<ToolSpec['request']>[0]
  const request = entry.spec.request(valid)
  if ('refused' in request) return errorResult({ status: 422, body: { error: request.refused, code: 'BAD_ARGUMENTS' } }, 'tool')
  const answer = await dispatch(call.fetch, routeRequest(call.request, call.key, request.path, request.query))
  return toolResult(answer, valid.limit ?? DEFAULT_ROW_LIMIT)
}
