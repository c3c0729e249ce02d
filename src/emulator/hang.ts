/**
 * Bindings that never answer, for the request-deadline tests: under the emulator entry,
 * `PUT /__emulator/hang {"bindings": ["KEY_GUARD"]}` makes every read of those bindings hang
 * (KV and R2 reads, every Durable Object call), until `DELETE /__emulator/hang` or the reset.
 * With `"ms": 500` they answer after that delay instead (an answer that comes after the deadline).
 * Writes still go through at once, so nothing left behind a test waits for ever.
 */
export const HANG_BINDINGS = ['KEYS', 'CACHE', 'STORE', 'KEY_GUARD', 'ANON_GUARD'] as const
export type HangBinding = (typeof HANG_BINDINGS)[number]

const hanging = new Set<HangBinding>()
/** Null: never answer; else answer after this many ms. */
let delayMs: number | null = null

export function setHangs(bindings: readonly HangBinding[], ms: number | null = null): void {
  hanging.clear()
  for (const b of bindings) hanging.add(b)
  delayMs = ms
}

export function clearHangs(): void {
  hanging.clear()
  delayMs = null
}

export function hangs(): HangBinding[] {
  return [...hanging]
}

/** A promise that never settles. */
const never = <T>() => new Promise<T>(() => {})

/** `call` as the hang has it: never answered, or answered late. */
function stalled<T>(call: () => Promise<T>): Promise<T> {
  const ms = delayMs
  if (ms === null) return never()
  return new Promise((resolve) => setTimeout(resolve, ms)).then(call)
}

type AnyFn = (...args: unknown[]) => Promise<unknown>
/** Method `name` of `target`, stalled. */
const stall = (target: object, name: string) => (...args: unknown[]) => stalled(() => ((target as Record<string, AnyFn>)[name] as AnyFn).apply(target, args))

function hangingKv(kv: KVNamespace): KVNamespace {
  return {
    get: stall(kv, 'get'),
    getWithMetadata: stall(kv, 'getWithMetadata'),
    list: stall(kv, 'list'),
    put: (...args: Parameters<KVNamespace['put']>) => kv.put(...args),
    delete: (...args: Parameters<KVNamespace['delete']>) => kv.delete(...args),
  } as unknown as KVNamespace
}

function hangingR2(r2: R2Bucket): R2Bucket {
  return {
    get: stall(r2, 'get'),
    head: stall(r2, 'head'),
    list: stall(r2, 'list'),
    put: (...args: Parameters<R2Bucket['put']>) => r2.put(...args),
    delete: (...args: Parameters<R2Bucket['delete']>) => r2.delete(...args),
  } as unknown as R2Bucket
}

/** A namespace whose stubs stall every call (`then` left alone: a stub is not a promise). */
function hangingDurableObjects(ns: DurableObjectNamespace): DurableObjectNamespace {
  const stalledStub = (real: DurableObjectStub) => new Proxy({}, { get: (_, prop) => (prop === 'then' || typeof prop !== 'string' ? undefined : stall(real, prop)) })
  return {
    getByName: (name: string) => stalledStub(ns.getByName(name)),
    get: (id: DurableObjectId) => stalledStub(ns.get(id)),
    idFromName: (name: string) => ns.idFromName(name),
  } as unknown as DurableObjectNamespace
}

/** `env` with the hanging bindings swapped in; `env` itself when none hang (the common case). */
export function withHangs(env: Env): Env {
  if (hanging.size === 0) return env
  const over: Partial<Env> = {}
  if (hanging.has('KEYS')) over.KEYS = hangingKv(env.KEYS)
  if (hanging.has('CACHE')) over.CACHE = hangingKv(env.CACHE)
  if (hanging.has('STORE')) over.STORE = hangingR2(env.STORE)
  if (hanging.has('KEY_GUARD')) over.KEY_GUARD = hangingDurableObjects(env.KEY_GUARD)
  if (hanging.has('ANON_GUARD')) over.ANON_GUARD = hangingDurableObjects(env.ANON_GUARD)
  // Defined, not assigned: assigning through the prototype would call the test pool's env proxy
  // and replace the real binding for good.
  const own = Object.fromEntries(Object.entries(over).map(([k, value]) => [k, { value, enumerable: true }]))
  return Object.create(env, own) as Env
}
