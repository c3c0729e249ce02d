import { beforeEach, describe, expect, it } from 'vitest'
import { clearMarketCache, FRESHNESS_MS, sharedAnswer, STALE_LIMIT_MS } from './market-cache'

const ok = (b: { ok: boolean }) => b.ok

describe('sharedAnswer', () => {
  beforeEach(() => clearMarketCache())

  it('computes once per freshness window, however many callers', async () => {
    let runs = 0
    const compute = async () => ({ ok: true, n: ++runs })
    const answers = await Promise.all(Array.from({ length: 100 }, () => sharedAnswer('k', 'changedist', 1_000, compute, ok)))
    expect(runs).toBe(1)
    expect(answers.filter((a) => a.hit)).toHaveLength(99)
    expect((await sharedAnswer('k', 'changedist', 1_000 + FRESHNESS_MS.changedist - 1, compute, ok)).value.n).toBe(1)
    // Without waitUntil an expired answer is computed again in the open.
    expect((await sharedAnswer('k', 'changedist', 1_000 + FRESHNESS_MS.changedist, compute, ok)).value.n).toBe(2)
  })

  it('serves an expired answer inside the stale limit at once and refreshes it in the background, once', async () => {
    let runs = 0
    let release = () => {}
    const compute = async () => {
      runs++
      if (runs > 1) await new Promise<void>((r) => (release = r))
      return { ok: true, n: runs }
    }
    const background: Promise<unknown>[] = []
    const opts = { waitUntil: (p: Promise<unknown>) => void background.push(p) }
    await sharedAnswer('k', 'hot', 0, compute, ok, opts)
    const later = FRESHNESS_MS.hot + 1
    const stale = await Promise.all([sharedAnswer('k', 'hot', later, compute, ok, opts), sharedAnswer('k', 'hot', later + 5, compute, ok, opts)])
    expect(stale.map((a) => a.value.n)).toEqual([1, 1])
    expect(runs).toBe(2)
    expect(background).toHaveLength(1)
    release()
    await Promise.all(background)
    expect((await sharedAnswer('k', 'hot', later + 10, compute, ok, opts)).value.n).toBe(2)
  })

  it('computes in the open past the stale limit, and keeps a stale answer when its refresh fails', async () => {
    let fail = false
    let runs = 0
    const compute = async () => {
      runs++
      if (fail) return { ok: false, n: runs }
      return { ok: true, n: runs }
    }
    const background: Promise<unknown>[] = []
    const opts = { waitUntil: (p: Promise<unknown>) => void background.push(p) }
    await sharedAnswer('k', 'hot', 0, compute, ok, opts)
    fail = true
    expect((await sharedAnswer('k', 'hot', FRESHNESS_MS.hot, compute, ok, opts)).value).toEqual({ ok: true, n: 1 })
    await Promise.all(background)
    expect((await sharedAnswer('k', 'hot', FRESHNESS_MS.hot + 1, compute, ok, opts)).value.n).toBe(1)
    await Promise.all(background)
    expect((await sharedAnswer('k', 'hot', STALE_LIMIT_MS.hot, compute, ok, opts)).value.ok).toBe(false)
  })
})
