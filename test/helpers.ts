import { env } from 'cloudflare:test'
import { exports } from 'cloudflare:workers'
import { generateKey, hashKey, kvKeyOf, type KeyRecord } from '../src/access/keys'
import type { Tier } from '../src/access/tiers'

const BASE = 'http://127.0.0.1:8787'

/** Stores a new key record in KV (as `npm run key -- create` does) and returns the key. */
export async function makeKey(tier: Exclude<Tier, 'free'>, extra: Partial<KeyRecord> = {}): Promise<string> {
  const key = generateKey()
  const record: KeyRecord = { tier, label: 'test', created: new Date().toISOString(), status: 'active', ...extra }
  await env.KEYS.put(kvKeyOf(await hashKey(key)), JSON.stringify(record))
  return key
}

/** The key `call` uses unless told otherwise; `resetWorld` replaces it, so counters start fresh. */
let defaultKey: string | null = null

/** A new test file starts without the default key, as in a new runtime (test/fresh-file.ts). */
export function forgetDefaultKey(): void {
  defaultKey = null
}

/** Request options for an anonymous call (no key). */
export const ANONYMOUS = { anonymous: true } as const

/**
 * Calls the worker's default export (the emulator entry), as a client would over HTTP. Sends the
 * default test key (tier unlimited) unless the request has its own Authorization header or is
 * made with `{ anonymous: true }`.
 */
export function call(path: string, init: RequestInit & { anonymous?: boolean } = {}): Promise<Response> {
  const { anonymous, ...rest } = init
  const headers = new Headers(rest.headers)
  if (!anonymous && defaultKey && !headers.has('authorization') && !path.includes('key=')) headers.set('authorization', `Bearer ${defaultKey}`)
  return (exports as unknown as { default: { fetch(r: Request): Promise<Response> } }).default.fetch(new Request(BASE + path, { ...rest, headers }))
}

/** GET `path` and return status and parsed JSON body. */
export async function getJson(path: string, init?: RequestInit & { anonymous?: boolean }): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await call(path, init)
  const text = await res.text()
  let body: unknown = text
  try {
    body = JSON.parse(text)
  } catch {
    // Not JSON: tests assert on the text.
  }
  return { status: res.status, body, headers: res.headers }
}

async function send(method: string, path: string, body?: unknown) {
  const res = await call(path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await res.text()
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status}: ${text}`)
}

/** A Friday 10:30 in Beijing: inside the morning session of a trading day. */
export const SESSION_CLOCK = '2026-11-20T10:30:00+08:00'

/** Fresh emulator (no faults, fixed clock) and fresh failover memory. */
export async function resetWorld(clock: string = SESSION_CLOCK) {
  defaultKey = await makeKey('unlimited')
  await send('POST', '/__emulator/reset')
  await send('DELETE', '/__emulator/router')
  await send('PUT', '/__emulator/clock', { now: clock })
}

export type FaultKind = 'timeout' | 'http' | 'ban' | 'garbage' | 'empty' | 'slow' | 'hang' | 'truncated' | 'nan' | 'fields'

export async function fault(channel: 'eastmoney' | 'tencent' | 'sina' | 'ths' | 'hkex', kind: FaultKind, extra: { ms?: number; count?: number } = {}) {
  await send('PUT', `/__emulator/faults/${channel}`, { kind, ...extra })
}

/**
 * Forgets the live answers the service shares within the source's cadence (quote lines, Eastmoney's
 * stock/get), as if 3 s had passed with the market unchanged: the next call asks its host again.
 */
export async function passCadence() {
  await send('DELETE', '/__emulator/shared-lines')
}

/** Request counters per channel from the emulator. */
export async function upstreamRequests(): Promise<Record<string, number>> {
  const { body } = await getJson('/__emulator')
  return body.requests
}
