import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { generateKey, hashKey, kvKeyOf } from '../src/access/keys'
import type { FaultKind } from './helpers'
import { storeJson } from './store-app'

/**
 * The fault matrix: every route, under every fault the emulator has, on each channel the
 * route really asks. The answer comes from another channel or from the store, or it is `ok:false`
 * and not counted, always inside the deadline and our envelope; and a spoilt payload (cut short,
 * `NaN` numbers, a field missing) is never served: an answer that still names the spoilt channel
 * must carry exactly the data of the clean answer.
 *
 * Every GET operation of /openapi.json is driven (a route registered tomorrow joins the day it
 * exists), with the parameters of {@link SAMPLE} where it needs some.
 */
export const SAMPLE: Record<string, string> = {
  '/v1/quote': 'code=sh600519,hk00700',
  '/v1/kline': 'code=sh600519&period=week&count=5',
  '/v1/kline-full': 'code=sh600519',
  '/v1/market-kline': '',
  '/v1/screen': 'preset=LowPE',
  '/v1/technical': 'code=sh600519',
  '/v1/technical-batch': 'codes=sh600519,sz000001',
  '/v1/dividend': 'code=sh600519',
  '/v1/shareholder': 'code=sh600519',
  '/v1/chip': 'code=sh600519',
  '/v1/events': 'code=sh600519',
  '/v1/fund': 'code=sh600519',
  '/v1/block-trade': 'code=sh600519',
  '/v1/search': 'q=gzmt',
  '/v1/macro': 'region=cn&names=cpi',
  '/v1/ipo': '',
  '/v1/calendar': '',
  '/v1/finance': 'code=sh600519',
  '/v1/snapshot': 'code=sh600519',
  '/v1/orderbook': 'code=sh600519',
  '/v1/dehydrated': '',
  '/v1/playbooks': '',
  '/v1/hot': '',
  '/v1/changedist': '',
  '/v1/market-overview': 'type=summary',
  '/v1/industry-chain': '',
  '/v1/sector-valuation': 'code=sh600519',
  '/v1/trade-calendar': 'year=2025',
}

export const FAULTS: FaultKind[] = ['timeout', 'http', 'ban', 'garbage', 'empty', 'slow', 'truncated', 'nan', 'fields']
const SPOILING: ReadonlySet<FaultKind> = new Set(['truncated', 'nan', 'fields'])
const CHANNELS = ['eastmoney', 'tencent', 'sina', 'ths', 'hkex'] as const
type Channel = (typeof CHANNELS)[number]

const send = (method: string, path: string, body?: unknown) =>
  storeJson(path, { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })

async function freshKey(): Promise<string> {
  const key = generateKey()
  await env.KEYS.put(kvKeyOf(await hashKey(key)), JSON.stringify({ tier: 'unlimited', label: 'fault-matrix', created: new Date().toISOString(), status: 'active' }))
  return key
}

async function requests(): Promise<Record<Channel, number>> {
  return (await storeJson('/__emulator')).body.requests
}

/** The routes to drive: every documented GET under /v1 except the bookkeeping ones and the push route (test/stream.test.ts faults its upstream). */
async function routes(): Promise<string[]> {
  const doc = (await storeJson('/openapi.json')).body as { paths: Record<string, { get?: unknown }> }
  return Object.entries(doc.paths)
    .filter(([path, item]) => path.startsWith('/v1/') && item.get && !['/v1/health', '/v1/status', '/v1/usage', '/v1/challenge', '/v1/ip-whitelist', '/v1/stream'].includes(path))
    .map(([path]) => path)
}

const strip = (body: Record<string, unknown>) => JSON.stringify(body.data)

/**
 * Runs the matrix for `part` of `parts` shares of the routes (split in files so that the pool runs
 * them side by side and no file grows past what its harness takes; see test/fuzz-routes.ts).
 */
export function faultMatrix(part: number, parts: number) {
  describe(`fault matrix (routes ${part + 1} of ${parts})`, () => {
    it('every route answers in our envelope under every fault of every channel it asks, and counts only ok answers', async () => {
      const all = await routes()
      if (part === 0) expect(Object.keys(SAMPLE).sort()).toEqual([...all].sort())
      const mine = all.filter((_, i) => i % parts === part)
      await send('POST', '/__emulator/reset')
      await send('DELETE', '/__emulator/router')
      await send('PUT', '/__emulator/clock', { now: '2026-11-20T10:30:00+08:00' })
      await send('PUT', '/__emulator/channel-timeout', { ms: 400 })
      const problems: string[] = []
      /** One line per route and channel: each fault and where the answer came from (the closing note's table). */
      const table: string[] = []
      try {
        for (const route of mine) {
          const url = `${route}?${SAMPLE[route] ?? ''}`
          const key = await freshKey()
          const before = await requests()
          const clean = await storeJson(url, { key })
          const after = await requests()
          const asked = CHANNELS.filter((c) => after[c] > before[c])
          let okCalls = clean.body?.ok === true ? 1 : 0
          /**
           * The clean answer's data from `source`: a payload served from a spoilt channel is held to
           * that channel's own clean data, since channels may differ in precision (Tencent's
           * turnover is in units of 100 yuan) and, on a loaded machine, the clean call itself may
           * have timed out on one channel and come from the next.
           */
          const cleanData = new Map<string, string>()
          if (clean.body?.ok === true) cleanData.set(String(clean.body.source), strip(clean.body))
          const cleanFrom = async (source: string): Promise<string | undefined> => {
            for (let attempt = 0; attempt < 3 && !cleanData.has(source); attempt++) {
              await send('DELETE', '/__emulator/router')
              const again = await storeJson(url, { key })
              if (again.body?.ok === true) {
                okCalls++
                cleanData.set(String(again.body.source), strip(again.body))
              }
            }
            return cleanData.get(source)
          }
          for (const channel of asked) {
            const cells: string[] = []
            for (const kind of FAULTS) {
              await send('DELETE', '/__emulator/router')
              await send('PUT', `/__emulator/faults/${channel}`, kind === 'slow' ? { kind, ms: 150 } : { kind })
              // A hung channel is given up after the channel timeout: a shorter one for this call alone,
              // since what it asks (our envelope, nothing counted but ok answers) does not need the wait.
              if (kind === 'timeout') await send('PUT', '/__emulator/channel-timeout', { ms: 150 })
              const got = await storeJson(url, { key })
              if (kind === 'timeout') await send('PUT', '/__emulator/channel-timeout', { ms: 400 })
              await send('DELETE', '/__emulator/faults')
              const where = `${url} with ${channel} ${kind}`
              if (got.status !== 200 || typeof got.body !== 'object' || typeof got.body.ok !== 'boolean') {
                problems.push(`${where}: HTTP ${got.status} ${String(got.text).slice(0, 160)}`)
                continue
              }
              if (got.body.ok) okCalls++
              cells.push(`${kind}→${got.body.ok ? String(got.body.source).replace('emulator:', '') + (got.body.stale ? ' (stale)' : '') : got.body.code}`)
              const servedFrom = String(got.body.source ?? '')
              if (got.body.ok && SPOILING.has(kind) && servedFrom.includes(channel) && clean.body.ok === true) {
                const reference = await cleanFrom(servedFrom)
                if (reference === undefined) problems.push(`${where}: no clean answer from ${servedFrom} to hold it to`)
                else if (reference !== strip(got.body)) problems.push(`${where}: served a spoilt payload from ${servedFrom}`)
              }
            }
            table.push(`${url} | ${channel} | ${cells.join(' ')}`)
          }
          if (asked.length === 0) table.push(`${url} | (no upstream: ${clean.body?.source ?? clean.status}) |`)
          // Every channel down at once: nothing from an upstream, nothing counted (the store and stale copies may still answer).
          await send('DELETE', '/__emulator/router')
          for (const channel of CHANNELS) await send('PUT', `/__emulator/faults/${channel}`, { kind: 'http' })
          const down = await storeJson(url, { key })
          await send('DELETE', '/__emulator/faults')
          if (down.status !== 200 || typeof down.body?.ok !== 'boolean') problems.push(`${url} with every channel down: HTTP ${down.status}`)
          else if (down.body.ok) {
            okCalls++
            const upstream = CHANNELS.some((c) => String(down.body.source).includes(c))
            if (upstream && down.body.stale !== true) problems.push(`${url} with every channel down: ok from ${down.body.source}, not marked stale`)
          }
          const usage = (await storeJson('/v1/usage', { key })).body.data
          const counted = Object.values(usage.endpoints as Record<string, { calls: number }>).reduce((n, e) => n + e.calls, 0)
          if (counted !== okCalls) problems.push(`${url}: ${counted} calls counted for ${okCalls} ok answers`)
        }
      } finally {
        await send('DELETE', '/__emulator/faults')
        await send('DELETE', '/__emulator/channel-timeout')
      }
      console.log(`fault matrix, routes ${part + 1} of ${parts} (route | channel | fault→source or code):\n${table.join('\n')}`)
      expect(problems).toEqual([])
    }, 600_000)
  })
}
