/**
 * The one mechanism for what an isolate keeps between requests (docs/architecture.md, "Caches").
 * The module that owns a cache's data declares its kind beside its class (`cacheKind`);
 * `services.caches.of(kind)` hands out the one instance of that `Services`, made on first use (the
 * services' own are made with the `Services`), and `caches.clear()` is the one way to forget them:
 * `Services.reset()` (the emulator's reset, which tests call) calls it. Production never clears on
 * purpose; an isolate's caches end with it.
 *
 * A cache is what could be thrown away and made again from its sources at the cost of a few
 * requests. Breakers, failover routes, host counters and request budgets are state, not caches:
 * `Services.reset()` resets them apart (src/services/index.ts).
 */
export interface CacheKind<T> {
  /** What the cache holds, in words (for a reader and the test listing them, in test/shared-answers.test.ts). */
  readonly name: string
  readonly create: (env: CacheEnv) => T
  /** Forgets what it holds (the instance stays: a request under way may still hold it). */
  readonly clear: (cache: T) => void
}

/** What a cache may need of its `Services` when it is made: the service clock. */
export interface CacheEnv {
  readonly now: () => number
}

/**
 * Every kind declared by the modules loaded, in the order they were: constants (a kind holds no
 * data), so that a test can list them all.
 */
const DECLARED: CacheKind<unknown>[] = []

/** Declares a kind of cache (see {@link CacheKind}), in the module that owns its data. */
export const cacheKind = <T>(name: string, create: (env: CacheEnv) => T, clear: (cache: T) => void): CacheKind<T> => {
  const kind = { name, create, clear }
  DECLARED.push(kind as CacheKind<unknown>)
  return kind
}

/** The caches of one `Services`, by kind. */
export class IsolateCaches {
  private readonly held = new Map<CacheKind<unknown>, unknown>()

  constructor(private readonly env: CacheEnv = { now: Date.now }) {}

  /** This `Services`' cache of `kind`, made on first use. */
  of<T>(kind: CacheKind<T>): T {
    let cache = this.held.get(kind as CacheKind<unknown>) as T | undefined
    if (cache === undefined) {
      cache = kind.create(this.env)
      this.held.set(kind as CacheKind<unknown>, cache)
    }
    return cache
  }

  /** Forgets what every cache made so far holds. */
  clear(): void {
    for (const [kind, cache] of this.held) kind.clear(cache)
  }

  /** The names of the caches made so far. */
  names(): string[] {
    return [...this.held.keys()].map((k) => k.name)
  }

  /** The names of every kind the loaded modules declare, made or not. */
  static names(): string[] {
    return DECLARED.map((k) => k.name)
  }
}
