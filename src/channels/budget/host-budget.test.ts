import { describe, expect, it } from 'vitest'
import { ChannelError } from '../errors'
import { HostBudgets, sliceOf, type BudgetObjectCalls } from './host-budget'

/** A budget object as the Durable Object counts (src/runtime/host-budget-object.ts). */
function object() {
  let minute = -1
  let granted = 0
  const calls: number[] = []
  const o: BudgetObjectCalls = {
    lease: async (m, want, limit) => {
      calls.push(want)
      if (m > minute) [minute, granted] = [m, 0]
      const g = Math.max(0, Math.min(want, limit - granted))
      granted += g
      return g
    },
  }
  return { o, calls, granted: () => granted }
}

const T = Date.parse('2026-11-20T02:30:00Z')

describe('host budgets', () => {
  it('leases slices of a twentieth of the minute, between 1 and 30', () => {
    expect([sliceOf(5), sliceOf(120), sliceOf(600), sliceOf(10_000)]).toEqual([1, 6, 30, 30])
  })

  it('spends a leased slice without asking again, then leases the next', async () => {
    const b = new HostBudgets({ eastmoney: 120 })
    const { o, calls } = object()
    for (let k = 0; k < 7; k++) await b.spend('eastmoney', T, () => o)
    expect(calls).toEqual([6, 6])
    expect(b.sentThisMinute('eastmoney', T)).toBe(7)
  })

  it('never lets two isolates together past the limit, and opens again the next minute', async () => {
    const shared = object()
    const [a, b] = [new HostBudgets({ eastmoney: 10 }), new HostBudgets({ eastmoney: 10 })]
    let sent = 0
    let refused = 0
    for (let k = 0; k < 30; k++) {
      try {
        await (k % 2 ? a : b).spend('eastmoney', T, () => shared.o)
        sent++
      } catch (e) {
        expect(e instanceof ChannelError && e.kind).toBe('over_budget')
        refused++
      }
    }
    expect([sent, refused, shared.granted()]).toEqual([10, 20, 10])
    // Once the object has said the minute is spent, an isolate stops asking it until the next.
    expect(shared.calls.length).toBeLessThanOrEqual(10 + 2)
    await a.spend('eastmoney', T + 60_000, () => shared.o)
    expect(a.sentThisMinute('eastmoney', T + 60_000)).toBe(1)
  })

  it('concurrent requests share one lease at a time: the isolate holds no more of the minute than it spends', async () => {
    const b = new HostBudgets({ sina: 300 })
    const shared = object()
    const results = await Promise.allSettled(Array.from({ length: 40 }, () => b.spend('sina', T, () => shared.o)))
    expect(results.every((r) => r.status === 'fulfilled')).toBe(true)
    // Slices of 15: three leases for 40 requests, not one per request.
    expect(shared.calls).toEqual([15, 15, 15])
    expect(b.sentThisMinute('sina', T)).toBe(40)
    // A second isolate gets what is left of the minute.
    const other = new HostBudgets({ sina: 300 })
    let sent = 0
    for (let k = 0; k < 300; k++) await other.spend('sina', T, () => shared.o).then(() => sent++, () => undefined)
    expect(sent).toBe(300 - 45)
  })

  it('lets every request go without a limit or without an object to ask', async () => {
    const b = new HostBudgets({})
    for (let k = 0; k < 50; k++) await b.spend('tencent', T, () => undefined)
    const c = new HostBudgets({ tencent: 1 })
    for (let k = 0; k < 5; k++) await c.spend('tencent', T, () => undefined)
    expect([b.sentThisMinute('tencent', T), c.sentThisMinute('tencent', T)]).toEqual([50, 5])
  })

  it('takes a deployment override over the defaults, and ignores one that is not numbers', () => {
    const b = new HostBudgets()
    expect(b.limitOf('eastmoney')).toBe(120)
    b.configure('{"eastmoney": 60}')
    expect([b.limitOf('eastmoney'), b.limitOf('tencent')]).toEqual([60, 600])
    b.configure('{"eastmoney": "lots"}')
    expect(b.limitOf('eastmoney')).toBe(60)
  })
})
