import { describe, expect, it } from 'vitest'
import { ChannelError } from './errors'
import { fetchText } from './http'
import { RequestScope, runInScope } from '../runtime/request-scope'

const ctx = (fetch: typeof globalThis.fetch, timeoutMs = 50) => ({ fetch, timeoutMs })

async function failure(p: Promise<unknown>): Promise<ChannelError> {
  try {
    await p
  } catch (e) {
    if (e instanceof ChannelError) return e
    throw e
  }
  throw new Error('expected a ChannelError')
}

describe('fetchText', () => {
  it('decodes GBK bodies', async () => {
    const gbk = new Uint8Array([0xb9, 0xf3, 0xd6, 0xdd])
    const text = await fetchText(ctx(async () => new Response(gbk)), 'tencent', 'https://x/', { encoding: 'gbk' })
    expect(text).toBe('贵州')
  })

  it('times out even when the fetch ignores its abort signal', async () => {
    const never = () => new Promise<Response>(() => {})
    const e = await failure(fetchText(ctx(never), 'sina', 'https://x/'))
    expect(e.kind).toBe('timeout')
  })

  it('turns a non-2xx status into an http failure', async () => {
    const e = await failure(fetchText(ctx(async () => new Response('bad', { status: 502 })), 'eastmoney', 'https://x/'))
    expect(e).toMatchObject({ kind: 'http', channel: 'eastmoney' })
  })

  it('turns a rejected fetch into a network failure', async () => {
    const e = await failure(fetchText(ctx(async () => Promise.reject(new TypeError('fetch failed'))), 'eastmoney', 'https://x/'))
    expect(e.kind).toBe('network')
  })

  describe('identical GETs in flight at the same time', () => {
    /** A stand-in upstream that answers after `ms`, counting what it was asked. */
    const slowUpstream = (ms = 5, answer: (url: string) => Response = (url) => new Response(`body of ${url}`)) => {
      const asked: string[] = []
      const fetch = (async (input: RequestInfo | URL) => {
        asked.push(String(input))
        await new Promise((r) => setTimeout(r, ms))
        return answer(String(input))
      }) as typeof globalThis.fetch
      return { fetch, asked }
    }

    it('share one round trip, each caller getting the text', async () => {
      const up = slowUpstream()
      const texts = await Promise.all([1, 2, 3].map(() => fetchText(ctx(up.fetch, 500), 'eastmoney', 'https://x/a')))
      expect(texts).toEqual(['body of https://x/a', 'body of https://x/a', 'body of https://x/a'])
      expect(up.asked).toEqual(['https://x/a'])
    })

    it('share the failure too: every caller gets the typed error', async () => {
      const up = slowUpstream(5, () => new Response('bad', { status: 502 }))
      const errors = await Promise.all([1, 2].map(() => failure(fetchText(ctx(up.fetch, 500), 'eastmoney', 'https://x/a'))))
      expect(errors.map((e) => [e.kind, e.status])).toEqual([['http', 502], ['http', 502]])
      expect(up.asked).toHaveLength(1)
    })

    it('are not a cache: a call after the round trip ended sends its own', async () => {
      const up = slowUpstream()
      await fetchText(ctx(up.fetch, 500), 'eastmoney', 'https://x/a')
      await fetchText(ctx(up.fetch, 500), 'eastmoney', 'https://x/a')
      expect(up.asked).toHaveLength(2)
    })

    it('are shared only when URL, channel, encoding and headers all match', async () => {
      const up = slowUpstream()
      const c = ctx(up.fetch, 500)
      await Promise.all([
        fetchText(c, 'eastmoney', 'https://x/a'),
        fetchText(c, 'eastmoney', 'https://x/b'),
        fetchText(c, 'sina', 'https://x/a'),
        fetchText(c, 'eastmoney', 'https://x/a', { encoding: 'gbk' }),
        fetchText(c, 'eastmoney', 'https://x/a', { headers: { referer: 'https://finance.sina.com.cn' } }),
      ])
      expect(up.asked).toHaveLength(5)
    })

    it('never share a POST, nor between two upstream fetches', async () => {
      const up = slowUpstream()
      const other = slowUpstream()
      await Promise.all([
        fetchText(ctx(up.fetch, 500), 'eastmoney', 'https://x/a', { post: '{}' }),
        fetchText(ctx(up.fetch, 500), 'eastmoney', 'https://x/a', { post: '{}' }),
        fetchText(ctx(other.fetch, 500), 'eastmoney', 'https://x/c'),
        fetchText(ctx(up.fetch, 500), 'eastmoney', 'https://x/c'),
      ])
      expect(up.asked).toEqual(['https://x/a', 'https://x/a', 'https://x/c'])
      expect(other.asked).toEqual(['https://x/c'])
    })

    it('never wait for a round trip whose request is over: it may never end', async () => {
      const up = slowUpstream(40)
      const owner = new RequestScope(15_000)
      const first = runInScope(owner, () => fetchText(ctx(up.fetch, 500), 'tencent', 'https://x/q'))
      // A second caller joins while the owner's request lives…
      const joiner = fetchText(ctx(up.fetch, 500), 'tencent', 'https://x/q')
      await new Promise((r) => setTimeout(r, 5))
      // …the owner's request is answered (or cut off) before its round trip ends: the joiner stops
      // waiting and sends its own, and so does a caller arriving now.
      owner.release()
      const late = fetchText(ctx(up.fetch, 500), 'tencent', 'https://x/q')
      expect(await joiner).toBe('body of https://x/q')
      expect(await late).toBe('body of https://x/q')
      expect(await first).toBe('body of https://x/q')
      expect(up.asked).toHaveLength(2)
    })

    it('a joiner of a round trip that times out gets the timeout', async () => {
      const never = (() => new Promise<Response>(() => {})) as typeof globalThis.fetch
      const errors = await Promise.all([1, 2].map(() => failure(fetchText(ctx(never, 30), 'sina', 'https://x/slow'))))
      expect(errors.map((e) => e.kind)).toEqual(['timeout', 'timeout'])
    })
  })
})
