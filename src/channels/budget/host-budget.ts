/**
 * A request budget per upstream host family (docs/architecture.md, "Polite at scale"): a ceiling of
 * requests per minute for the whole service ({@link UPSTREAM_BUDGETS}), counted by one
 * `HostBudget` Durable Object per family. An isolate leases a slice of the minute from it, as
 * keyed admission leases a key's minute from KeyGuard, and spends the slice without asking again;
 * a slice is counted when granted, so the ceiling holds across isolates. A request beyond it is
 * not sent: the channel fails with `over_budget`, and the failover moves to the next channel.
 */
import { UPSTREAM_BUDGETS } from '../../data/upstream-budgets'
import type { ChannelName } from '../../domain/channel-name'
import { currentScope } from '../../runtime/request-scope'
import { ChannelError } from '../errors'
import { Flight } from '../../domain/shared-flight'

/** What an isolate asks the family's object for: a slice of `want` requests of `minute`, under `limit`. */
export interface BudgetObjectCalls {
  lease(minute: number, want: number, limit: number): Promise<number>
}

/** The slice of the current minute an isolate holds for one family, and what it has sent. */
interface Slice {
  minute: number
  left: number
  /** Requests this isolate sent to the family in `minute`. */
  sent: number
  /** The object granted nothing: the minute's budget is spent, so nobody asks it again until the next. */
  spent: boolean
  /** The lease from the object under way, if any. */
  lease: Flight<void> | null
}

/** How long a request watches another's lease before asking again (real ms): the object answers in milliseconds. */
const LEASE_WAIT_MS = 2_000
/** Leases a request may wait through before it gives up for this minute (others took what each brought). */
const MAX_LEASE_ROUNDS = 3

/** A slice is a twentieth of the minute's budget, at least one request and at most 30. */
export const sliceOf = (limit: number) => Math.max(1, Math.min(30, Math.floor(limit / 20)))

const overBudget = (channel: string, limit: number) =>
  new ChannelError('over_budget', channel, `the service's budget of ${limit} requests a minute to this host is spent; the next minute starts a new one`)

/** The budgets of one isolate: limits by family, and the slices it holds. */
export class HostBudgets {
  private readonly slices = new Map<string, Slice>()
  private limits: Record<string, number>

  constructor(limits: Partial<Record<ChannelName, number>> = UPSTREAM_BUDGETS) {
    this.limits = { ...limits }
  }

  /**
   * A deployment's `UPSTREAM_BUDGETS` (a JSON object of limits by family), applied over the
   * defaults when it changes; a value that is not such an object is reported once and ignored.
   */
  configure(json: string | undefined): void {
    if (json === this.configured) return
    this.configured = json
    if (json === undefined) return this.setLimits(UPSTREAM_BUDGETS)
    try {
      const parsed = JSON.parse(json) as unknown
      if (!parsed || typeof parsed !== 'object' || Object.values(parsed).some((v) => typeof v !== 'number' || !(v >= 0))) throw new Error('not an object of non-negative numbers')
      this.setLimits({ ...UPSTREAM_BUDGETS, ...(parsed as Record<string, number>) })
    } catch (e) {
      console.error(`UPSTREAM_BUDGETS ignored: ${e instanceof Error ? e.message : String(e)}`)
    }
  }

  private configured: string | undefined

  /** Replaces the limits (a deployment's `UPSTREAM_BUDGETS`; the emulator's control route). Infinity or absent: no budget. */
  setLimits(limits: Partial<Record<ChannelName, number>>): void {
    this.limits = { ...limits }
    this.slices.clear()
  }

  limitOf(channel: string): number {
    return this.limits[channel] ?? Infinity
  }

  /** Requests this isolate sent to `channel` in the minute of `now`. */
  sentThisMinute(channel: string, now: number): number {
    const s = this.slices.get(channel)
    return s && s.minute === Math.floor(now / 60_000) ? s.sent : 0
  }

  /**
   * Takes one request of `channel`'s budget at `now`, leasing a new slice from the family's object
   * when this isolate's is spent; throws `over_budget` when the object grants none. Without an
   * object to ask (Node tests, the emulator's default), or with no limit, every request may go.
   *
   * One lease per family is in flight at a time: the requests that find the slice empty meanwhile
   * watch it (a {@link Flight}: workerd's rule, src/domain/shared-flight.ts) and share what it
   * brings, so an isolate never holds more of the minute than it spends, and other isolates get the rest.
   */
  async spend(channel: string, now: number, objectOf: (channel: string) => BudgetObjectCalls | undefined): Promise<void> {
    const limit = this.limitOf(channel)
    const minute = Math.floor(now / 60_000)
    for (let round = 0; ; round++) {
      let s = this.slices.get(channel)
      if (!s || s.minute !== minute) this.slices.set(channel, (s = { minute, left: 0, sent: 0, spent: false, lease: null }))
      if (!Number.isFinite(limit) || s.left > 0) {
        if (s.left > 0) s.left--
        s.sent++
        return
      }
      if (s.spent || round > MAX_LEASE_ROUNDS) throw overBudget(channel, limit)
      if (!s.lease) {
        const object = objectOf(channel)
        if (!object) {
          s.sent++
          return
        }
        s.lease = new Flight(this.lease(s, object, limit))
      }
      // The lease's own request waits for it; others watch it, at most a little over the object's answer time.
      await s.lease.joinWithin(LEASE_WAIT_MS).catch(() => undefined)
    }
  }

  private async lease(s: Slice, object: BudgetObjectCalls, limit: number): Promise<void> {
    try {
      const granted = await object.lease(s.minute, sliceOf(limit), limit)
      s.left += granted
      if (granted === 0) s.spent = true
    } finally {
      s.lease = null
    }
  }

  clear(): void {
    this.slices.clear()
  }
}

/**
 * The family's budget object as the current request may call it: made from the request's own
 * binding (a stub may not cross requests), or undefined outside a request or without the binding.
 */
export function budgetObjectOf(channel: string): BudgetObjectCalls | undefined {
  const ns = currentScope()?.budgetObjects
  return ns ? (ns.getByName(channel) as unknown as BudgetObjectCalls) : undefined
}
