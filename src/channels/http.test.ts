import { describe, expect, it } from 'vitest'
import { ChannelError } from './errors'
import { HostHealth } from './host-health'
import { fetchText } from './http'

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

  it.each([403, 429, 456])('turns HTTP %i into a ban, with its status', async (status) => {
    const e = await failure(fetchText(ctx(async () => new Response('Forbidden', { status })), 'sina', 'https://x/'))
    expect(e).toMatchObject({ kind: 'banned', channel: 'sina', status })
  })

  it("turns a captcha page where data was expected, and Tencent's empty answer, into a ban", async () => {
    const page = '<html><head><title>安全验证</title></head><body>请输入验证码</body></html>'
    expect((await failure(fetchText(ctx(async () => new Response(page)), 'eastmoney', 'https://x/'))).kind).toBe('banned')
    expect((await failure(fetchText(ctx(async () => new Response('')), 'tencent', 'https://x/'))).kind).toBe('banned')
    expect(await fetchText(ctx(async () => new Response('')), 'eastmoney', 'https://x/')).toBe('')
  })

  it('counts each request and its outcome in the host health when given', async () => {
    let t = 0
    const health = new HostHealth(() => t)
    const with502 = { fetch: (async () => new Response('bad', { status: 502 })) as typeof fetch, timeoutMs: 50, health }
    const ok = { fetch: (async () => new Response('ok')) as typeof fetch, timeoutMs: 50, health }
    await failure(fetchText(with502, 'eastmoney', 'https://x/'))
    t = 1_000
    expect(await fetchText(ok, 'eastmoney', 'https://x/')).toBe('ok')
    expect(health.counts('eastmoney')).toEqual({ requests: 2, failures: 1, requestsThisMinute: 2, lastSuccess: 1_000 })
  })
})
