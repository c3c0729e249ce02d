import { DurableObject } from 'cloudflare:workers'

/**
 * Per-IP admission state for anonymous callers (issue 3). Declared now so the wrangler
 * migration creates it SQLite-backed from day one. NOT IMPLEMENTED YET: no route calls it.
 */
export class AnonGuard extends DurableObject<Env> {}
