import { describe, expect, it } from 'vitest'
import { ChannelError } from './errors'
import { fetchFeedLines, fetchLines, fetchLivePage, LinePool } from './live-lines'
import { QT_FEED } from './tencent/qt-feed'
import { HQ_FEED } from './sina/hq-feed'
import type { ChannelContext } from './types'

// 2026-11-26 (a Thursday) 10:00 Beijing: continuous trading. 23:00 the same day: closed.
const SESSION = Date.parse('2026-11-26T02:00:00Z')
const NIGHT = Date.parse('2026-11-26T15:00:00Z')

/** A host that answers `v_<code>="<code>~<n>";` per code it knows, counting requests and codes. */
function host(opts: { unknown?: string[]; fail?: () => boolean } = {}) {
  const requests: string[][] = []
  let n = 0
  const fetch: typeof globalThis.fetch = async (input: RequestInfo | URL) => {
    const url = new URL(String(input))
    const codes = (url.searchParams.get('q') ?? url.searchParams.get('list') ?? url.pathname.split('=')[1] ?? '').split(',')
    requests.push(codes)
    if (opts.fail?.()) return new Response('bad gateway', { status: 502 })
    n++
    const prefix = url.hostname.startsWith('hq.') ? 'var hq_str_' : 'v_'
    const body = codes.map((c) => (opts.unknown?.includes(c) ? '' : `${prefix}${c}="${c}~${n}";\n`)).join('') || 'v_pv_none_match="1";\n'
    return new Response(body)
  }
  return { fetch, requests }
}

function pool(at: number) {
  const clock = { now: at }
  const lines = new LinePool(() => clock.now)
  return { clock, lines }
}

const ctxOf = (fetch: typeof globalThis.fetch, lines?: LinePool): ChannelContext => ({ fetch, timeoutMs: 1_000, lines })
const codes = (n: number, from = 0) => Array.from({ length: n }, (_, k) => `sh${String(600000 + from + k)}`)

describe('live lines', () => {
  it('keptOnly serves the kept line whatever its age up to 15 minutes, and sends nothing', async () => {
    const h = host()
    const { clock, lines } = pool(SESSION)
    const fresh = await fetchLines(ctxOf(h.fetch, lines), QT_FEED, ['sh600519'])
    clock.now += 10 * 60_000
    const kept = { ...ctxOf(h.fetch, lines), keptOnly: true }
    expect(await fetchLines(kept, QT_FEED, ['sh600519', 'sh600000'])).toBe(fresh)
    clock.now += 6 * 60_000
    expect(await fetchLines(kept, QT_FEED, ['sh600519'])).toBe('')
    await expect(fetchLivePage(kept, 'eastmoney', 'https://push2.eastmoney.com/api/qt/stock/get?secid=1.600519', {}, 'sh600519')).rejects.toMatchObject({ kind: 'over_budget' })
    expect(h.requests).toHaveLength(1)
  })

  it('hands every call within the cadence the same line objects, in the order asked, and new ones after it', async () => {
    const h = host({ unknown: ['sh600000'] })
    const { clock, lines } = pool(SESSION)
    const ctx = ctxOf(h.fetch, lines)
    const first = await fetchFeedLines(ctx, QT_FEED, ['sh600519', 'sh600000', 'sh601318'])
    expect(first.map((l) => l.name)).toEqual(['sh600519', 'sh601318'])
    const again = await fetchFeedLines(ctx, QT_FEED, ['sh601318', 'sh600519'])
    expect(again[0]).toBe(first[1])
    expect(again[1]).toBe(first[0])
    expect(await fetchLines(ctx, QT_FEED, ['sh600519'])).toBe(`v_sh600519="${first[0].payload}";\n`)
    clock.now += 3_000
    const next = await fetchFeedLines(ctx, QT_FEED, ['sh600519'])
    expect(next[0]).not.toBe(first[0])
    expect(h.requests).toHaveLength(2)
  })

  it('without a pool asks the host every time', async () => {
    const h = host()
    await fetchLines(ctxOf(h.fetch), QT_FEED, ['sh600519'])
    await fetchLines(ctxOf(h.fetch), QT_FEED, ['sh600519'])
    expect(h.requests).toHaveLength(2)
  })

  it('200 calls for 20 symbols at once share one request', async () => {
    const h = host()
    const { lines } = pool(SESSION)
    const ctx = ctxOf(h.fetch, lines)
    const symbols = codes(20)
    const texts = await Promise.all(Array.from({ length: 200 }, (_, k) => fetchLines(ctx, QT_FEED, [symbols[k % 20]])))
    expect(h.requests).toHaveLength(1)
    expect(h.requests[0].sort()).toEqual([...symbols].sort())
    expect(texts[0]).toBe('v_sh600000="sh600000~1";\n')
    expect(texts[199]).toBe('v_sh600019="sh600019~1";\n')
  })

  it('200 calls for 200 symbols at once go out in full batches of the host size', async () => {
    const h = host()
    const { lines } = pool(SESSION)
    const ctx = ctxOf(h.fetch, lines)
    await Promise.all(codes(200).map((c) => fetchLines(ctx, QT_FEED, [c])))
    expect(h.requests.map((r) => r.length)).toEqual([60, 60, 60, 20])
    expect(new Set(h.requests.flat()).size).toBe(200)
  })

  it('a busy pool gathers longer, so that misses arriving one by one share full requests', async () => {
    const h = host()
    const { lines } = pool(SESSION)
    const ctx = ctxOf(h.fetch, lines)
    // A quiet pool does not hold a miss for the busy gather: two misses 20 ms apart go in two requests…
    const quiet = [fetchLines(ctx, QT_FEED, codes(1, 700))]
    await new Promise((r) => setTimeout(r, 20))
    quiet.push(fetchLines(ctx, QT_FEED, codes(1, 701)))
    await Promise.all(quiet)
    expect(h.requests).toEqual([['sh600700'], ['sh600701']])
    // …and 40 misses within two seconds make it busy.
    await fetchLines(ctx, QT_FEED, codes(38, 500))
    expect(h.requests).toHaveLength(3)
    // 100 new symbols, one call each, a millisecond or so apart (4 ms would gather one or two a request).
    const calls: Array<Promise<string>> = []
    for (const c of codes(100)) {
      calls.push(fetchLines(ctx, QT_FEED, [c]))
      await new Promise((r) => setTimeout(r, 1))
    }
    await Promise.all(calls)
    const busy = h.requests.slice(3)
    // A batch that fills goes at once; the rest within the longer gather: a few full requests, not dozens.
    expect(busy.length).toBeLessThanOrEqual(4)
    expect(busy[0]).toHaveLength(60)
    expect(new Set(busy.flat()).size).toBe(100)
  })

  it('answers a several-code call in the order asked, as the host would', async () => {
    const h = host()
    const { lines } = pool(SESSION)
    const text = await fetchLines(ctxOf(h.fetch, lines), QT_FEED, ['sz000001', 'sh600519'])
    expect(text).toBe('v_sz000001="sz000001~1";\nv_sh600519="sh600519~1";\n')
  })

  it('shares a line for the 3 s cadence in a session, then asks again', async () => {
    const h = host()
    const { clock, lines } = pool(SESSION)
    const ctx = ctxOf(h.fetch, lines)
    expect(await fetchLines(ctx, QT_FEED, ['sh600519'])).toContain('~1"')
    clock.now += 2_999
    expect(await fetchLines(ctx, QT_FEED, ['sh600519'])).toContain('~1"')
    clock.now += 1
    expect(await fetchLines(ctx, QT_FEED, ['sh600519'])).toContain('~2"')
    expect(h.requests).toHaveLength(2)
    expect(lines.counts().tencent).toEqual({ requests: 2, codesRequested: 2, hits: 1, sharedHits: 0 })
  })

  it('shares an A-share line for a minute at night, a Hong Kong line for 3 s', async () => {
    const h = host()
    const { clock, lines } = pool(NIGHT)
    const ctx = ctxOf(h.fetch, lines)
    await fetchLines(ctx, QT_FEED, ['sh600519', 'hk00700'])
    clock.now += 59_000
    await fetchLines(ctx, QT_FEED, ['sh600519'])
    expect(h.requests).toHaveLength(1)
    await fetchLines(ctx, QT_FEED, ['hk00700'])
    expect(h.requests).toHaveLength(2)
  })

  it('a stale miss refreshes the stale lines asked for recently in the same request', async () => {
    const h = host()
    const { clock, lines } = pool(SESSION)
    const ctx = ctxOf(h.fetch, lines)
    await fetchLines(ctx, QT_FEED, codes(10))
    clock.now += 5_000
    await fetchLines(ctx, QT_FEED, ['sz000001'])
    expect(h.requests[1]).toHaveLength(11)
    // The ten ride along, so their next callers are served without a request.
    await fetchLines(ctx, QT_FEED, codes(10))
    expect(h.requests).toHaveLength(2)
  })

  it('lets a code nobody asked for in a minute leave the active set', async () => {
    const h = host()
    const { clock, lines } = pool(SESSION)
    const ctx = ctxOf(h.fetch, lines)
    await fetchLines(ctx, QT_FEED, ['sh600000'])
    clock.now += 61_000
    await fetchLines(ctx, QT_FEED, ['sh600519'])
    expect(h.requests[1]).toEqual(['sh600519'])
  })

  it('remembers that the host does not know a code, for the cadence', async () => {
    const h = host({ unknown: ['sh688999'] })
    const { lines } = pool(SESSION)
    const ctx = ctxOf(h.fetch, lines)
    expect(await fetchLines(ctx, QT_FEED, ['sh688999', 'sh600519'])).toBe('v_sh600519="sh600519~1";\n')
    expect(await fetchLines(ctx, QT_FEED, ['sh688999'])).toBe('')
    expect(h.requests).toHaveLength(1)
  })

  it('shares a failure with every caller of the batch and keeps nothing', async () => {
    let failing = true
    const h = host({ fail: () => failing })
    const { lines } = pool(SESSION)
    const ctx = ctxOf(h.fetch, lines)
    const all = await Promise.allSettled(codes(5).map((c) => fetchLines(ctx, QT_FEED, [c])))
    expect(h.requests).toHaveLength(1)
    for (const r of all) expect(r.status === 'rejected' && r.reason instanceof ChannelError && r.reason.kind).toBe('http')
    failing = false
    expect(await fetchLines(ctx, QT_FEED, ['sh600000'])).toContain('~1"')
  })

  it('sends codes as the host takes them (Sina futures in upper case), with the Referer', async () => {
    const seen: Array<{ url: string; referer: string | null }> = []
    const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      seen.push({ url: String(input), referer: new Headers(init?.headers).get('referer') })
      return new Response('var hq_str_nf_RB2501="RB,3500";\n')
    }) as typeof globalThis.fetch
    const { lines } = pool(SESSION)
    expect(await fetchLines(ctxOf(fetch, lines), HQ_FEED, ['nf_RB2501'])).toBe('var hq_str_nf_RB2501="RB,3500";\n')
    expect(seen).toEqual([{ url: 'https://hq.sinajs.cn/list=nf_RB2501', referer: 'https://finance.sina.com.cn/' }])
  })

  it('shares a single-code page by URL for the cadence of its code', async () => {
    const h = host()
    const { clock, lines } = pool(SESSION)
    const ctx = ctxOf(h.fetch, lines)
    const url = 'https://qt.gtimg.cn/q=sh600519'
    const texts = await Promise.all(Array.from({ length: 50 }, () => fetchLivePage(ctx, 'eastmoney', url, {}, 'sh600519')))
    expect(new Set(texts)).toEqual(new Set(['v_sh600519="sh600519~1";\n']))
    clock.now += 2_000
    await fetchLivePage(ctx, 'eastmoney', url, {}, 'sh600519')
    expect(h.requests).toHaveLength(1)
    clock.now += 1_000
    expect(await fetchLivePage(ctx, 'eastmoney', url, {}, 'sh600519')).toContain('~2"')
    expect(lines.pageCounts()).toEqual({ requests: 2, hits: 50 })
  })

  it('keeps no page longer than 64 K characters, so it cannot crowd out the rest', async () => {
    let n = 0
    const fetch: typeof globalThis.fetch = async () => new Response(`${++n}`.padEnd(70_000, '.'))
    const { lines } = pool(SESSION)
    const ctx = ctxOf(fetch, lines)
    await fetchLivePage(ctx, 'eastmoney', 'https://push2his.eastmoney.com/k', {}, 'sh600519')
    expect((await fetchLivePage(ctx, 'eastmoney', 'https://push2his.eastmoney.com/k', {}, 'sh600519')).startsWith('2')).toBe(true)
  })
})
