/**
 * Work shared between requests (one KV read for a burst of calls with the same key, one upstream
 * request for the same bars), with a bound on how long anyone waits for it.
 *
 * Why the bound: in workerd a promise started by one request settles only while that request
 * lives. If that request ends first (its client went away, or its deadline answered for it),
 * the promise may never settle, and every later request that joins it would wait forever. So a
 * flight is joined only while it is younger than `maxAgeMs`, each joiner waits at most what is
 * left of that age, and a flight past it is replaced by a fresh one.
 */
export class SharedFlights<K, V> {
  private readonly flights = new Map<K, { startedAt: number; promise: Promise<V> }>()

  constructor(
    private readonly maxAgeMs: number,
    private readonly clock: () => number = Date.now
  ) {}

  /** The result of the flight for `key`: joined while it is young enough, else started with `start`. */
  async run(key: K, start: () => Promise<V>): Promise<V> {
    const flight = this.flights.get(key)
    if (flight) {
      const left = flight.startedAt + this.maxAgeMs - this.clock()
      if (left > 0) {
        const joined = await within(flight.promise, left)
        if (joined) return joined.value
      }
      // Abandoned, or older than any real read takes: forget it and start again.
      if (this.flights.get(key) === flight) this.flights.delete(key)
    }
    const mine = { startedAt: this.clock(), promise: start() }
    this.flights.set(key, mine)
    const forget = () => {
      if (this.flights.get(key) === mine) this.flights.delete(key)
    }
    mine.promise.then(forget, forget)
    return mine.promise
  }

  /** Flights currently shared (diagnostics and tests). */
  get size(): number {
    return this.flights.size
  }

  clear(): void {
    this.flights.clear()
  }
}

/**
 * Waits for `promise` at most `ms`: `{ value }` when it resolved in time, undefined when the time
 * ran out first; rejects as `promise` does.
 */
export function within<T>(promise: Promise<T>, ms: number): Promise<{ value: T } | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeUp = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms)
  })
  return Promise.race([promise.then((value) => ({ value })), timeUp]).finally(() => {
    if (timer !== undefined) clearTimeout(timer)
  })
}
