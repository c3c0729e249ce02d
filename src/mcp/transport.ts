/**
 * MCP's Streamable HTTP transport, server side, for a stateless server that answers in JSON (no
 * sessions, no event streams): one POST carries a message or a batch of them, and its answer carries
 * the answers to its requests. Each refusal (status, code and wording) is the one the MCP SDK
 * 1.32.2's `WebStandardStreamableHTTPServerTransport` gives with `enableJsonResponse: true`, in the
 * same order of checks, except where JSON-RPC 2.0 says otherwise (batches, below) or an echo would
 * run long (ids and headers are echoed bounded); src/mcp/protocol.ts says why we do not run that
 * transport.
 */
import { ECHO_MAX_CHARS, quotedExcerpt } from '../http/validation'
import { ERROR_CODES, errorOf, parseMessage, readableId, type JsonRpcMessage, type JsonRpcRequest, type JsonRpcResponse } from './jsonrpc'
import { isInitializeRequest, SUPPORTED_PROTOCOL_VERSIONS } from './protocol'

/** The largest request body read (the SDK's default), in bytes. */
const MAX_BODY_BYTES = 4 * 1024 * 1024
/** The most messages in one batch (the SDK's bound). */
const MAX_BATCH_SIZE = 100

const JSON_HEADERS = { 'Content-Type': 'application/json' }

/** A refusal of the whole HTTP request: a JSON-RPC error without an id. */
const refusal = (status: number, code: number, message: string) => new Response(JSON.stringify(errorOf(null, code, message)), { status, headers: JSON_HEADERS })

/** Whether a Content-Type header's media type (parameters aside, in any case) is application/json. */
const isJsonContentType = (header: string | null) => header !== null && header.split(';', 1)[0]!.trim().toLowerCase() === 'application/json'

/** The body as text, or null when it is larger than MAX_BODY_BYTES (read no further than that). */
async function bodyText(request: Request): Promise<string | null> {
  if (Number(request.headers.get('content-length')) > MAX_BODY_BYTES) return null
  if (request.body === null) return ''
  const decoder = new TextDecoder()
  let received = 0
  let text = ''
  for await (const chunk of request.body as unknown as AsyncIterable<Uint8Array>) {
    received += chunk.byteLength
    if (received > MAX_BODY_BYTES) return null
    text += decoder.decode(chunk, { stream: true })
  }
  return text + decoder.decode()
}

/**
 * Answers a POST: its requests each by `answerRequest`, concurrently; a body of notifications and
 * responses only gets 202. A request whose string id is longer than {@link ECHO_MAX_CHARS} is not a
 * message here (src/mcp/jsonrpc.ts): it is answered Invalid Request with id null, never echoed.
 */
export async function handlePost(request: Request, answerRequest: (request: JsonRpcRequest) => Promise<JsonRpcResponse>): Promise<Response> {
  // Accept is a list: a substring check, as the SDK does.
  const accept = request.headers.get('accept') ?? ''
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
    return refusal(406, ERROR_CODES.serverError, 'Not Acceptable: Client must accept both application/json and text/event-stream')
  }
  if (!isJsonContentType(request.headers.get('content-type'))) {
    return refusal(415, ERROR_CODES.serverError, 'Unsupported Media Type: Content-Type must be application/json')
  }
  let body: unknown
  try {
    const text = await bodyText(request)
    if (text === null) return refusal(413, ERROR_CODES.serverError, `Payload Too Large: Request body must not exceed ${MAX_BODY_BYTES} bytes`)
    body = JSON.parse(text)
  } catch {
    return refusal(400, ERROR_CODES.parseError, 'Parse error: Invalid JSON')
  }
  if (Array.isArray(body) && body.length > MAX_BATCH_SIZE) {
    return refusal(400, ERROR_CODES.invalidRequest, `Invalid Request: Batch must not exceed ${MAX_BATCH_SIZE} messages`)
  }
  // Batches. MCP's Streamable HTTP transport allowed them in 2025-03-26 only: 2025-06-18 and 2025-11-25
  // (the newest version spoken here, SUPPORTED_PROTOCOL_VERSIONS) removed JSON-RPC batching, and the
  // body of a POST "MUST be a single JSON-RPC request, notification, or response". Clients of
  // 2025-03-26 may still send them, so a batch is answered as JSON-RPC 2.0 answers one
  // (https://www.jsonrpc.org/specification, "Batch"): an empty one is a single Invalid Request error,
  // each element that is not a message gets its own Invalid Request error (id null unless readable),
  // the others their answers, notifications and responses none; the answers go back as an array.
  if (Array.isArray(body) && body.length === 0) return refusal(400, ERROR_CODES.invalidRequest, 'Invalid Request: an empty batch')
  const batch = Array.isArray(body)
  const elements: unknown[] = batch ? (body as unknown[]) : [body]
  const messages = elements.map(parseMessage)
  // One message that is not one: the whole POST is refused. (The SDK answers -32700 here; JSON-RPC's code
  // for valid JSON that is not a message is -32600.)
  if (!batch && messages[0] === null) return refusal(400, ERROR_CODES.invalidRequest, invalidMessage(body))
  const requests = messages.flatMap((m) => (m?.kind === 'request' ? [m.request] : []))
  if (requests.some(isInitializeRequest)) {
    if (elements.length > 1) return refusal(400, ERROR_CODES.invalidRequest, 'Invalid Request: Only one initialization request is allowed')
  } else {
    // After initialize, a client names the version it negotiated; one not spoken here is refused.
    const version = request.headers.get('mcp-protocol-version')
    if (version !== null && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
      return refusal(400, ERROR_CODES.serverError, `Bad Request: Unsupported protocol version: ${version.length <= ECHO_MAX_CHARS ? version : quotedExcerpt(version)} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`)
    }
  }
  // Requests answered in the order sent; elements that are not messages answered in their place.
  const answers = await Promise.all(
    messages.map((m: JsonRpcMessage | null, i): Promise<JsonRpcResponse> | null =>
      m === null ? Promise.resolve(errorOf(readableId(elements[i]), ERROR_CODES.invalidRequest, invalidMessage(elements[i]))) : m.kind === 'request' ? answerRequest(m.request) : null
    )
  )
  const sent = answers.filter((a): a is JsonRpcResponse => a !== null)
  // Notifications (initialized, cancelled, progress) and a client's responses ask nothing of a stateless server.
  if (sent.length === 0) return new Response(null, { status: 202 })
  return new Response(JSON.stringify(batch ? sent : sent[0]), { status: 200, headers: JSON_HEADERS })
}

/** Why a value is not a message: an id past the bound is named (it cannot be echoed), anything else is generic. */
function invalidMessage(value: unknown): string {
  const id = typeof value === 'object' && value !== null ? (value as { id?: unknown }).id : undefined
  if (typeof id === 'string' && id.length > ECHO_MAX_CHARS) return `Invalid Request: an id longer than ${ECHO_MAX_CHARS} characters (${id.length}); it is not echoed`
  return 'Invalid Request: not a JSON-RPC 2.0 message'
}
