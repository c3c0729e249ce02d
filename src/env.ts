/** Bindings declared in wrangler.toml, plus secrets. */
interface Bindings {
  UPSTREAM: string
  KEYS: KVNamespace
  CACHE: KVNamespace
  STORE: R2Bucket
  KEY_GUARD: DurableObjectNamespace
  ANON_GUARD: DurableObjectNamespace
  /** One request budget object per upstream family (src/runtime/host-budget-object.ts). */
  HOST_BUDGET: DurableObjectNamespace
  /** Push quotes' fan-out objects, one per shard of the code space (src/features/stream/stream-shard.ts). */
  STREAM_SHARD: DurableObjectNamespace<import('./features/stream/stream-shard').StreamShard>
  /** Requests per minute per upstream family, a JSON object over the defaults of src/data/upstream-budgets.ts. */
  UPSTREAM_BUDGETS?: string
  /** public/ as Workers static assets: /docs, /chart, and the owned tables the Worker reads (src/store/owned-tables.ts). */
  ASSETS: Fetcher
  /** HMAC secret for PoW challenges (`wrangler secret put POW_SECRET`); unset in production = PoW off. */
  POW_SECRET?: string
  /** Bearer token for the /__jobs admin routes (`wrangler secret put ADMIN_TOKEN`); unset in production = routes hidden (404). */
  ADMIN_TOKEN?: string
}

declare global {
  interface Env extends Bindings {}
  // The test pool types `env` from 'cloudflare:test' as Cloudflare.Env.
  namespace Cloudflare {
    interface Env extends Bindings {}
  }
}
export {}
