/**
 * Who is calling /mcp: the same API keys as the HTTP API (`Authorization: Bearer`, `X-API-Key`,
 * `?key=`). MCP needs a key: without one, with an unknown, revoked or conflicting one, or with a
 * malformed Authorization header (`Bearer k1 k2`), the answer is the HTTP API's error (JSON
 * `{error, code}`) with a `WWW-Authenticate` challenge, before any MCP message is read. Admission itself (tier, limits, counting) is the dispatched route's.
 */
import type { Context } from 'hono'
import { KEY_RECORDS, MALFORMED_AUTHORIZATION, presentedKey } from '../access/key-lookup'
import { howToGetAKey } from '../access/keys'
import type { AppEnv } from '../http/context'

/** RFC 6750's challenge; `error` only when a key was presented. */
const challenge = (error?: string) => `Bearer realm="mcp"${error ? `, error="${error}"` : ''}`

/** The caller's key, or the answer refusing the request. */
export async function mcpCaller(c: Context<AppEnv>): Promise<{ key: string } | { refusal: Response }> {
  const key = presentedKey({ authorization: c.req.header('authorization'), xApiKey: c.req.header('x-api-key'), query: c.req.queries('key') })
  if (key === null) {
    return refuse(c, 401, challenge(), {
      error: `an API key is required for /mcp: send Authorization: Bearer <API_KEY> (or X-API-Key: <API_KEY>, or ?key=<API_KEY>); no key yet? ${howToGetAKey('trial')}`,
      code: 'KEY_REQUIRED',
    })
  }
  if (typeof key === 'object' && 'malformed' in key) {
    return refuse(c, 401, challenge('invalid_request'), { error: MALFORMED_AUTHORIZATION, code: 'KEY_INVALID' })
  }
  if (typeof key === 'object') {
    return refuse(c, 400, challenge('invalid_request'), {
      error: `different API keys in ${key.conflict.join(' and ')}; send one key, in one place (Authorization: Bearer is recommended)`,
      code: 'KEY_CONFLICT',
    })
  }
  const { record } = await c.get('services').caches.of(KEY_RECORDS).lookup(c.env.KEYS, key)
  if (!record || record.status !== 'active') {
    return refuse(c, 401, challenge('invalid_token'), {
      error: record ? 'this API key has been revoked' : `unknown API key; check it, or ${howToGetAKey('trial')}`,
      code: 'KEY_INVALID',
    })
  }
  return { key }
}

function refuse(c: Context<AppEnv>, status: 400 | 401, wwwAuthenticate: string, body: { error: string; code: string }) {
  return { refusal: c.json(body, status, { 'WWW-Authenticate': wwwAuthenticate }) }
}
