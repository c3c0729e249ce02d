import { beforeEach, describe, expect, it } from 'vitest'
import { FRESHNESS_MS, SharedAnswers, STALE_LIMIT_MS } from './shared-answers'

const ok = (b: { ok: boolean }) => b.ok

// Each test starts from an empty cache of its own, as a reset isolate does.
let cache = new SharedAnswers()
const sharedAnswer: SharedAnswers['answer'] = (...args) => cache.answer(...args)

describe('sharedAnswer', () => {
  beforeEach(() => void (cache = new SharedAnswers()))

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
    // The first computation was handed to waitUntil too: it outlives its request for those who joined it.
    expect(background).toHaveLength(1)
    const later = FRESHNESS_MS.hot + 1
    const stale = await Promise.all([sharedAnswer('k', 'hot', later, compute, ok, opts), sharedAnswer('k', 'hot', later + 5, compute, ok, opts)])
    expect(stale.map((a) => a.value.n)).toEqual([1, 1])
    expect(runs).toBe(2)
    expect(background).toHaveLength(2)
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

describe('sharedAnswer across requests', () => {
  beforeEach(() => void (cache = new SharedAnswers()))

  it('hands each joiner a promise of its own, never the computing request\'s (workerd: no I/O across requests)', async () => {
    let release!: (v: { ok: boolean; n: number }) => void
    const work = new Promise<{ ok: boolean; n: number }>((r) => (release = r))
    const compute = () => work
    const first = sharedAnswer('k', 'changedist', 0, compute, ok)
    const joined = [sharedAnswer('k', 'changedist', 1, compute, ok), sharedAnswer('k', 'changedist', 2, compute, ok)]
    release({ ok: true, n: 1 })
    const all = await Promise.all([first, ...joined])
    expect(all.map((a) => [a.value.n, a.hit])).toEqual([[1, false], [1, true], [1, true]])
  })

  it('starts again when the computation it would join was abandoned by its request', async () => {
    const never = () => new Promise<{ ok: boolean; n: number }>(() => {})
    void sharedAnswer('k', 'changedist', 0, never, ok)
    // A computation that never ends is not joined for ever: a later caller, past the abandon bound, computes its own.
    const realNow = Date.now
    Date.now = () => realNow() + 60_000
    try {
      expect((await sharedAnswer('k', 'changedist', 1, async () => ({ ok: true, n: 2 }), ok)).value.n).toBe(2)
    } finally {
      Date.now = realNow
    }
  })
})
