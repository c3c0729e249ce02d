/**
 * Work shared between requests (one KV read for a burst of calls with the same key, one upstream
 * round for the same bars or the same market answer), and the two workerd rules it must keep.
 *
 * 1. **No promise crosses between requests.** In workerd every request runs in its own I/O
 *    context, and objects made in one (a response body, a Durable Object stub, a stream) may not be
 *    touched from another. A request that awaits a promise another request created can be resumed
 *    in that other request's context; what it then builds (its `Response`, its refund through a
 *    stub) belongs to the wrong request, and workerd answers 500 "Cannot perform I/O on behalf of
 *    a different request" (seen under load: about 1 in 10,000 concurrent /v1/changedist calls, and
 *    refunds lost the same way). Resolving a joiner's own promise from the working request is no
 *    cure either: in the test pool it resumed the joiner in the worker's context. So a joiner never
 *    touches the work's promise: it watches the flight's state with timers of its own (a few
 *    milliseconds apart; the work it waits for is an upstream round of tens of milliseconds to
 *    seconds) and reads the value once it is there. Only plain data crosses: parsed values,
 *    strings, bytes; never a Response or a stream.
 * 2. **A flight may never settle.** Work started by one request settles only while that request
 *    lives; if it ends first (its client went away, or its deadline answered for it) every joiner
 *    would wait for ever. So joiners wait at most a bound, and a flight past its age is replaced.
 */

/** Milliseconds between a joiner's looks at a flight: short at first, then at most the last. */
export const WATCH_MS = [1, 2, 4, 8, 15, 25] as const

/** How a flight ended: its value, or its error. */
type Outcome<V> = { ok: true; value: V } | { ok: false; error: unknown }

/**
 * One piece of work and everyone waiting for it. The request that starts it owns the work's
 * promise; every other request calls {@link join} or {@link joinWithin}, which watch its state.
 */
export class Flight<V> {
  private outcome: Outcome<V> | undefined

  /**
   * @param work the work's promise, started by the calling request (none: see {@link Flight.of})
   * @param startedAt real time (ms) it started: the age bound of joiners is counted from it
   */
  constructor(
    work: Promise<V> | undefined,
    readonly startedAt: number = Date.now()
  ) {
    work?.then(
      (value) => this.finish({ ok: true, value }),
      (error) => this.finish({ ok: false, error })
    )
  }

  /** A flight that has already ended with `value` (an answer computed earlier, kept for joiners). */
  static of<V>(value: V, startedAt?: number): Flight<V> {
    const f = new Flight<V>(undefined, startedAt)
    f.outcome = { ok: true, value }
    return f
  }

  private finish(outcome: Outcome<V>): void {
    this.outcome = outcome
  }

  /** True once the work has ended (either way). */
  get settled(): boolean {
    return this.outcome !== undefined
  }

  /** The value, once the work has ended well; undefined before, or after a failure. */
  get value(): V | undefined {
    return this.outcome?.ok ? this.outcome.value : undefined
  }

  /** The work's result, watched from the caller's own request (see rule 1 above); waits as long as it takes. */
  join(): Promise<V> {
    return this.joinWithin(Infinity).then((joined) => joined!.value)
  }

  /**
   * The work's result, waiting at most what is left of `maxAgeMs` since the start (real time):
   * `{ value }` in time, undefined when the flight is too old to wait for; rejects as the work did.
   */
  joinWithin(maxAgeMs: number, now = Date.now()): Promise<{ value: V } | undefined> {
    const o = this.outcome
    if (o) return o.ok ? Promise.resolve({ value: o.value }) : Promise.reject(o.error)
    const until = this.startedAt + maxAgeMs
    if (until <= now) return Promise.resolve(undefined)
    return new Promise((resolve, reject) => {
      let look = 0
      const watch = () => {
        const o = this.outcome
        if (o) return o.ok ? resolve({ value: o.value }) : reject(o.error)
        const left = until - Date.now()
        if (left <= 0) return resolve(undefined)
        setTimeout(watch, Math.min(left, WATCH_MS[Math.min(look++, WATCH_MS.length - 1)]))
      }
      watch()
    })
  }
}

/**
 * Flights by key: a burst of callers with the same key shares one. A flight is joined while it is
 * younger than `maxAgeMs`, each joiner waiting at most what is left of that age; a flight past it
 * is replaced by a fresh one. A settled flight is forgotten (this is coalescing, not a cache).
 */
export class SharedFlights<K, V> {
  private readonly flights = new Map<K, Flight<V>>()

  constructor(
    private readonly maxAgeMs: number,
    private readonly clock: () => number = Date.now
  ) {}

  /** The result of the flight for `key`: joined while it is young enough, else started with `start`. */
  async run(key: K, start: () => Promise<V>): Promise<V> {
    for (let flight = this.flights.get(key); flight; flight = this.flights.get(key)) {
      const joined = await flight.joinWithin(this.maxAgeMs, this.clock())
      if (joined) return joined.value
      // Abandoned, or older than any real read takes: forget it and start again, unless another
      // caller has already replaced it meanwhile (then that one is joined).
      if (this.flights.get(key) === flight) {
        this.flights.delete(key)
        break
      }
    }
    const work = start()
    const mine = new Flight(work, this.clock())
    this.flights.set(key, mine)
    const forget = () => {
      if (this.flights.get(key) === mine) this.flights.delete(key)
    }
    work.then(forget, forget)
    return work
  }

  /** Flights currently shared (diagnostics and tests). */
  get size(): number {
    return this.flights.size
  }

  clear(): void {
    this.flights.clear()
  }
}
