/**
 * MCP's Streamable HTTP transport, server side, for a stateless server that answers in JSON (no
 * sessions, no event streams): one POST carries a message or a batch of them, and its answer carries
 * the answers to its requests. Each refusal (status, code and wording) is the one the MCP SDK
 * 1.32.2's `WebStandardStreamableHTTPServerTransport` gives with `enableJsonResponse: true`, in the
 * same order of checks; src/mcp/protocol.ts says why we do not run that transport.
 */
import { ERROR_CODES, errorOf, parseMessage, type JsonRpcRequest, type JsonRpcResponse } from './jsonrpc'
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

/** Answers a POST: its requests each by `answerRequest`, concurrently; a body of notifications and responses only gets 202. */
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
  const messages = (Array.isArray(body) ? body : [body]).map(parseMessage)
  // The SDK answers -32700 here; JSON-RPC's code for valid JSON that is not a message is -32600.
  if (messages.includes(null)) return refusal(400, ERROR_CODES.invalidRequest, 'Invalid Request: not a JSON-RPC 2.0 message')
  const requests = messages.flatMap((m) => (m?.kind === 'request' ? [m.request] : []))
  if (requests.some(isInitializeRequest)) {
    if (messages.length > 1) return refusal(400, ERROR_CODES.invalidRequest, 'Invalid Request: Only one initialization request is allowed')
  } else {
    // After initialize, a client names the version it negotiated; one not spoken here is refused.
    const version = request.headers.get('mcp-protocol-version')
    if (version !== null && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
      return refusal(400, ERROR_CODES.serverError, `Bad Request: Unsupported protocol version: ${version} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`)
    }
  }
  // Notifications (initialized, cancelled, progress) and a client's responses ask nothing of a stateless server.
  if (requests.length === 0) return new Response(null, { status: 202 })
  const answers = await Promise.all(requests.map(answerRequest))
  return new Response(JSON.stringify(answers.length === 1 ? answers[0] : answers), { status: 200, headers: JSON_HEADERS })
}
