import { ChannelError } from './errors'
/**
 * Test helpers for the channel suites: a GBK encoder (so wire samples go through the real GBK
 * decoding path) and a fake upstream `fetch` that records every call.
 */
import type { ChannelContext } from './types'

let table: Map<string, [number, number]> | undefined

/** Encodes text to GBK bytes, inverting workerd's own `TextDecoder('gbk')` over the double-byte range. */
export function gbk(text: string): Uint8Array {
  if (!table) {
    table = new Map()
    const dec = new TextDecoder('gbk')
    for (let lead = 0x81; lead <= 0xfe; lead++) {
      for (let trail = 0x40; trail <= 0xfe; trail++) {
        if (trail === 0x7f) continue
        const ch = dec.decode(new Uint8Array([lead, trail]))
        if (ch.length === 1 && ch !== '\ufffd' && !table.has(ch)) table.set(ch, [lead, trail])
      }
    }
  }
  const out: number[] = []
  for (const ch of text) {
    const c = ch.codePointAt(0)!
    if (c < 0x80) {
      out.push(c)
      continue
    }
    const bytes = table.get(ch)
    if (!bytes) throw new Error(`no GBK encoding for '${ch}'`)
    out.push(...bytes)
  }
  return new Uint8Array(out)
}

interface RecordedCall {
  url: string
  headers: Record<string, string>
}

export type Answer = { status?: number; body: string | Uint8Array }

/** A fake `ctx` whose fetch answers from `answer(url, headers)` and records each call. */
export function fakeContext(answer: (url: string, headers: Record<string, string>) => Answer | Promise<Answer>) {
  const calls: RecordedCall[] = []
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
    const headers = Object.fromEntries(new Headers(init?.headers).entries())
    calls.push({ url, headers })
    const a = await answer(url, headers)
    return new Response(a.body, { status: a.status ?? 200 })
  }) as typeof globalThis.fetch
  const ctx: ChannelContext = { fetch, timeoutMs: 2000 }
  return { ctx, calls }
}

/** The `ChannelError` kind `f` throws: 'no error' when it returns, 'not a ChannelError' for anything else. */
export function failureKind(f: () => unknown): string {
  try {
    f()
  } catch (e) {
    return e instanceof ChannelError ? e.kind : 'not a ChannelError'
  }
  return 'no error'
}
