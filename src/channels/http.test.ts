import { describe, expect, it } from 'vitest'
import { ChannelError } from './errors'
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
})
