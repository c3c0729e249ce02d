/**
 * Calls the emulator worker's own fetch handler with bindings a test may override (e.g.
 * ADMIN_TOKEN) and waits for its `waitUntil` work (R2 writes, settlement), which `call` from
 * ./helpers does not offer.
 */
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test'
import worker, { services } from '../src/emulator/worker'

export { services }

/** Calls the app as a client would; `key` goes in the Authorization header. */
export async function storeCall(path: string, init: RequestInit & { key?: string; env?: Partial<Env> } = {}): Promise<Response> {
  const { key, env: extra, ...rest } = init
  const headers = new Headers(rest.headers)
  if (key) headers.set('authorization', `Bearer ${key}`)
  const ctx = createExecutionContext()
  const res = await worker.fetch(new Request('http://127.0.0.1:8787' + path, { ...rest, headers }), { ...env, ...extra }, ctx)
  const body = await res.arrayBuffer()
  await waitOnExecutionContext(ctx)
  return new Response(body, res)
}

/** GET (or `init.method`) `path`: status, parsed JSON body, headers. */
export async function storeJson(path: string, init: RequestInit & { key?: string; env?: Partial<Env> } = {}) {
  const res = await storeCall(path, init)
  const text = await res.text()
  let body: any = text
  try {
    body = JSON.parse(text)
  } catch {
    // not JSON: the test looks at the text
  }
  return { status: res.status, body, headers: res.headers, text }
}

/** POST a JSON body to an admin route. */
export const post = (path: string, body?: unknown, init: { env?: Partial<Env>; headers?: Record<string, string> } = {}) =>
  storeJson(path, { method: 'POST', headers: { 'content-type': 'application/json', ...init.headers }, body: body === undefined ? undefined : JSON.stringify(body), env: init.env })
