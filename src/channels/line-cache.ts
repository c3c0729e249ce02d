/**
 * The live lines shared across the isolates of a location (docs/architecture.md, "Polite at
 * scale"): each code's line as the host sent it, with the service-clock time it was fetched, in the
 * Workers Cache API. An isolate that misses a line in its own pool (src/channels/live-lines.ts)
 * reads it here before asking the host, and every line it fetches is written here for the others.
 *
 * One entry per code, so isolates asking for different mixes of codes still meet. The reader
 * decides freshness by the service clock against the source's cadence; the entry's `max-age` only
 * lets the cache drop it. The Cache API does nothing on `workers.dev` addresses: there each isolate
 * keeps to its own pool (docs/operations.md).
 */

/** A code's line as kept: `line` null when the host sent none for the code; `at` service-clock ms. */
export interface CachedLine {
  code: string
  line: { name: string; payload: string } | null
  at: number
}

/** Where lines are shared across isolates. */
export interface LineCache {
  /** The entries kept for `keys` (lower-case codes) of `channel`; keys with none are absent. */
  read(channel: string, keys: readonly string[]): Promise<Map<string, CachedLine>>
  /** Keeps the lines of `channel`, by key. */
  write(channel: string, lines: ReadonlyArray<readonly [string, CachedLine]>): Promise<void>
  /** Forgets every entry from now on (a new generation of keys), as if each cadence had passed. */
  clear(): void
}

/** How long the cache may keep an entry (s): the longest cadence (outside the A-share day) is a minute. */
const MAX_AGE_S = 60

/** The shared lines over a Workers Cache (`caches.open('live-lines')` in production). */
export class CacheApiLines implements LineCache {
  private generation = 0
  private cache: Promise<Cache> | undefined

  /**
   * @param open the cache, opened on first use (a Worker may not open it before a request)
   * @param namespace what the keys start with: every isolate of a deployment must use the same
   */
  constructor(
    private readonly open: () => Promise<Cache>,
    private readonly namespace = 'v1'
  ) {}

  private url(channel: string, key: string): string {
    return `https://live-lines.internal/${this.namespace}/${this.generation}/${channel}/${encodeURIComponent(key)}`
  }

  private store(): Promise<Cache> {
    return (this.cache ??= this.open())
  }

  async read(channel: string, keys: readonly string[]): Promise<Map<string, CachedLine>> {
    const cache = await this.store()
    const out = new Map<string, CachedLine>()
    await Promise.all(
      keys.map(async (key) => {
        const hit = await cache.match(this.url(channel, key))
        if (!hit) return
        const kept = parseEntry(await hit.text())
        if (kept) out.set(key, kept)
      })
    )
    return out
  }

  async write(channel: string, lines: ReadonlyArray<readonly [string, CachedLine]>): Promise<void> {
    const cache = await this.store()
    await Promise.all(
      lines.map(([key, kept]) =>
        cache.put(this.url(channel, key), new Response(JSON.stringify(kept), { headers: { 'content-type': 'application/json', 'cache-control': `max-age=${MAX_AGE_S}` } }))
      )
    )
  }

  clear(): void {
    this.generation++
  }
}

/** An entry's JSON, or null when it is not one (written by another version of the service). */
function parseEntry(text: string): CachedLine | null {
  try {
    const v = JSON.parse(text) as Partial<CachedLine>
    if (typeof v.code !== 'string' || typeof v.at !== 'number') return null
    const line = v.line
    if (line === null) return { code: v.code, line: null, at: v.at }
    if (!line || typeof line.name !== 'string' || typeof line.payload !== 'string') return null
    return { code: v.code, line: { name: line.name, payload: line.payload }, at: v.at }
  } catch {
    return null
  }
}
