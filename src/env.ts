/** Bindings declared in wrangler.toml. */
declare global {
  interface Env {
    UPSTREAM: string
    KEYS: KVNamespace
    CACHE: KVNamespace
    STORE: R2Bucket
    KEY_GUARD: DurableObjectNamespace
    ANON_GUARD: DurableObjectNamespace
  }
}
export {}
