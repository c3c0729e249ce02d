import { describe, expect, it } from 'vitest'
import { ChannelError } from './errors'
import { walkConcurrency, walkRest, type WalkBudget } from './page-walk'

const BUDGET: WalkBudget = { budgetMs: 8_000, minConcurrency: 2, maxConcurrency: 5 }

describe('walkConcurrency', () => {
  it('stays two wide while a quick upstream finishes in time', () => {
    expect(walkConcurrency(55, 150, 7_850, BUDGET)).toBe(2) // 28 rounds × 150 ms = 4.2 s
  })

  it('widens as far as the budget needs, no further than the maximum', () => {
    expect(walkConcurrency(55, 300, 7_700, BUDGET)).toBe(3) // 28 × 300 = 8.4 s; 19 × 300 = 5.7 s
    expect(walkConcurrency(55, 650, 7_350, BUDGET)).toBe(5) // 11 × 650 = 7.15 s
  })

  it('gives up when even the widest walk would miss the budget (pages of 2 s: 11 rounds = 22 s)', () => {
    expect(walkConcurrency(55, 2_000, 6_000, BUDGET)).toBeUndefined()
  })

  it('needs nothing for a one-page list', () => {
    expect(walkConcurrency(0, 5_000, 0, BUDGET)).toBe(2)
  })
})

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms))

describe('walkRest', () => {
  it('fetches every page, in order, two at a time when the upstream is quick', async () => {
    let out = 0
    let widest = 0
    const pages = await walkRest('eastmoney', [2, 3, 4, 5, 6, 7], Date.now(), async (n) => {
      widest = Math.max(widest, ++out)
      await wait(5)
      out--
      return n * 10
    })
    expect(pages).toEqual([20, 30, 40, 50, 60, 70])
    expect(widest).toBe(2)
  })

  it('widens when two at a time would not end in time', async () => {
    let out = 0
    let widest = 0
    const budget: WalkBudget = { budgetMs: 1_000, minConcurrency: 2, maxConcurrency: 5 }
    await walkRest('eastmoney', Array.from({ length: 20 }, (_, i) => i), Date.now(), async () => {
      widest = Math.max(widest, ++out)
      await wait(100) // 10 rounds × 100 ms two wide: 1 s, past what is left of the 1 s budget; three wide 0.7 s
      out--
    }, budget)
    expect(widest).toBeGreaterThan(2)
  })

  it('stops early with a timeout when the pages are too slow for any width, asking for few', async () => {
    let asked = 0
    const budget: WalkBudget = { budgetMs: 1_000, minConcurrency: 2, maxConcurrency: 5 }
    const started = Date.now()
    const walk = walkRest('eastmoney', Array.from({ length: 55 }, (_, i) => i), started, async () => {
      asked++
      await wait(400) // 11 rounds five wide: 4.4 s
    }, budget)
    await expect(walk).rejects.toSatisfy((e) => e instanceof ChannelError && e.kind === 'timeout' && e.channel === 'eastmoney')
    expect(Date.now() - started).toBeLessThan(800) // judged on the first two pages back, not the budget
    expect(asked).toBeLessThanOrEqual(3)
  })

  it('rejects with the first page that fails', async () => {
    await expect(walkRest('tencent', [1, 2, 3], Date.now(), async (n) => {
      if (n === 2) throw new ChannelError('malformed', 'tencent', 'page 2 is broken')
      return n
    })).rejects.toThrow('page 2 is broken')
  })
})
