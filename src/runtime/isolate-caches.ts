/**
 * What this isolate remembers between requests, each cache registered by the module that keeps it,
 * so that one call forgets them all: `Services.reset()` (the emulator's reset, which tests call).
 * Production never forgets on purpose; an isolate's caches end with it.
 */
const clearers = new Map<string, () => void>()

/** Registers a cache under a name that says what it holds; registering a name again replaces it. */
export function registerIsolateCache(name: string, clear: () => void): void {
  clearers.set(name, clear)
}

/** Forgets every registered cache. */
export function clearIsolateCaches(): void {
  for (const clear of clearers.values()) clear()
}

/** The names of the registered caches. */
export const isolateCacheNames = (): string[] => [...clearers.keys()]
