/**
 * `POST /mcp`: a remote MCP server (Streamable HTTP, stateless, JSON answers) for AI agents. Each
 * request gets a fresh server (src/mcp/server.ts), whose messages src/mcp/transport.ts and
 * src/mcp/protocol.ts answer (the latter says why not the MCP SDK's server); tool calls run as `/v1`
 * requests through this same application (src/mcp/dispatch.ts), so /mcp itself counts nothing and
 * bypasses nothing. GET (a server-sent event stream) and DELETE (ending a session) have no meaning
 * without sessions: 405, as for every verb but POST (the CORS preflight is answered before).
 */
import type { Hono } from 'hono'
import type { AppEnv } from '../http/context'
import { mcpCaller } from './auth'
import { answerRequest } from './protocol'
import { createMcpServer } from './server'
import { handlePost } from './transport'

export function registerMcp(app: Hono<AppEnv>, version: string): void {
  app.post('/mcp', async (c) => {
    const caller = await mcpCaller(c)
    if ('refusal' in caller) return caller.refusal
    // Read at call time: app.fetch is wrapped with the request deadline after the routes are registered.
    const fetch = (request: Request) => app.fetch(request, c.env, c.executionCtx)
    const server = createMcpServer(version, { fetch, request: c.req.raw, key: caller.key })
    const answer = await handlePost(c.req.raw, (request) => answerRequest(server, request))
    // Through the context, so the answer carries the headers the middleware set (CORS, request id).
    return c.newResponse(answer.body, answer)
  })
  // Every other verb (PUT, PATCH, HEAD, …), not only the two the transport names: 405 with Allow.
  app.all('/mcp', (c) =>
    c.json({ error: `/mcp is stateless Streamable HTTP: send JSON-RPC messages with POST, not ${c.req.method}`, code: 'METHOD_NOT_ALLOWED' }, 405, { Allow: 'POST' })
  )
}
