/**
 * The caches a `Services` owns for modules it may not import (the access layer's, the technical
 * feature's): each such module declares its cache's kind here, and `services.caches.of(kind)` hands
 * out the one instance of that `Services`, made on first use. `Services.reset()` (the emulator's
 * reset, which tests call) clears them all with the rest. Production never clears on purpose; an
 * isolate's caches end with it.
 */
export interface CacheKind<T> {
  /** What the cache holds, in words (for a reader and the test listing them). */
  readonly name: string
  readonly create: () => T
  /** Forgets what it holds (the instance stays: a request under way may still hold it). */
  readonly clear: (cache: T) => void
}

/** Declares a kind of cache (see {@link CacheKind}). */
export const cacheKind = <T>(name: string, create: () => T, clear: (cache: T) => void): CacheKind<T> => ({ name, create, clear })

/** The caches of one `Services`, by kind. */
export class IsolateCaches {
  private readonly held = new Map<CacheKind<unknown>, unknown>()

  /** This `Services`' cache of `kind`, made on first use. */
  of<T>(kind: CacheKind<T>): T {
    let cache = this.held.get(kind as CacheKind<unknown>) as T | undefined
    if (cache === undefined) {
      cache = kind.create()
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
}
