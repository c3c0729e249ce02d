/**
 * The part of `node:async_hooks` the worker uses. workerd provides it with the `nodejs_als`
 * compatibility flag (wrangler.toml); @cloudflare/workers-types does not declare Node modules.
 */
declare module 'node:async_hooks' {
  export class AsyncLocalStorage<T> {
    getStore(): T | undefined
    run<R>(store: T, fn: () => R): R
  }
}
