import { DurableObject } from 'cloudflare:workers'

/**
 * Per-key admission state (issue 3): minute window, daily usage, heavy quota, pack cap, IP
 * allow-list. Declared now so the wrangler migration creates it SQLite-backed from day one.
 * NOT IMPLEMENTED YET: no route calls it.
 */
export class KeyGuard extends DurableObject<Env> {}
