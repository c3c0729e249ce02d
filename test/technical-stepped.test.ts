import { env } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { hasTraded, market } from '../src/emulator/market/index'
import { historyKey } from '../src/store/keys'
import { afterClose } from './after-close'
import { makeKey, resetWorld } from './helpers'
import { services, storeCall } from './store-app'

/**
 * /v1/technical steps an A-share stock's stored indicator state (after the session before its
 * quote's) with the quote's bar instead of computing over the stock's whole stored history. Each
 * answer here is asked twice at the same clock: once with the states hidden from the route (the
 * whole-history computation, as before the states were used) and once as it is; the two must be the
 * same bytes, and the second must not have read the stock's history.
 */

const isStateKey = (key: string) => key.includes('.states/') || key.endsWith('.state.txt')

/**
 * env.STORE noting every key it is asked about (GET or HEAD: a history this Services has parsed is
 * asked about by a HEAD, and read again only when its etag changed, src/store/history-cache.ts);
 * with `hideStates`, as if no state had ever been stored.
 */
function countingStore(hideStates: boolean) {
  const asked: string[] = []
  const bucket = new Proxy(env.STORE, {
    get(target, prop) {
      if (prop === 'get' || prop === 'head') {
        return (key: string, o?: R2GetOptions) => {
          asked.push(key)
          if (hideStates && isStateKey(key)) return Promise.resolve(null)
          return prop === 'get' ? target.get(key, o) : target.head(key)
        }
      }
      const v = Reflect.get(target, prop)
      return typeof v === 'function' ? v.bind(target) : v
    },
  })
  return { bucket, asked }
}

/** The answer without `elapsed_ms` (the one field that differs between two calls). */
const timeless = (text: string) => text.replace(/"elapsed_ms":\d+,/, '')

/** /v1/technical for `code` from the whole history, then from the state: both answers and what each read. */
async function bothWays(code: string, key: string) {
  services.reset() // shards parsed by an earlier call would bypass the hidden store
  const hidden = countingStore(true)
  const whole = await (await storeCall(`/v1/technical?code=${code}`, { key, env: { STORE: hidden.bucket } })).text()
  const real = countingStore(false)
  const stepped = await (await storeCall(`/v1/technical?code=${code}`, { key, env: { STORE: real.bucket } })).text()
  return { whole: timeless(whole), stepped: timeless(stepped), body: JSON.parse(stepped), wholeReads: hidden.asked, steppedReads: real.asked }
}

const FRIDAY = '2026-11-20'
const at = (clock: string) => Date.parse(clock)
const stocks = market.instruments().filter((i) => i.kind === 'stock')
const tradedAll = (i: (typeof stocks)[number]) => ['09:31', '14:59'].every((t) => hasTraded(market.live(i, at(`${FRIDAY}T${t}:00+08:00`))))
/** Traded on Friday and for years: sh600519, sz000001, a Beijing stock; and one listed weeks ago (its MA250 is still null). */
const BJ = stocks.find((i) => i.code.startsWith('bj') && i.listDate < '2025-01-01' && tradedAll(i))!.code
const YOUNG = stocks.find((i) => i.listDate > '2026-09-01' && i.listDate < '2026-11-10' && tradedAll(i))!.code
const CODES = ['sh600519', 'sz000001', BJ, YOUNG]
/** The newest listing by Thursday other than YOUNG, which the store has neither a history nor a state of (the backfill has not reached it). */
const NEW = stocks.filter((i) => i.listDate <= '2026-11-19' && i.code !== YOUNG && tradedAll(i)).sort((a, b) => (a.listDate < b.listDate ? 1 : -1))[0]?.code

describe('/v1/technical from the stored state: the same answer as the whole history, without reading it', () => {
  beforeAll(async () => {
    await resetWorld(`${FRIDAY}T10:30:00+08:00`)
    // Thursday's after-close job: histories through Thursday, its table and states.
    await afterClose(CODES, '2026-11-19', at('2026-11-19T17:00:00+08:00'))
  }, 120_000)

  /** In clock order; `stepped`: the quote carries a trade of its session, so the state is stepped. */
  const CLOCKS: Array<{ clock: string; stepped: boolean; table?: string }> = [
    { clock: `${FRIDAY}T09:05:00+08:00`, stepped: false }, // before the open: Thursday's row, from the whole history
    { clock: `${FRIDAY}T09:31:00+08:00`, stepped: true },
    { clock: `${FRIDAY}T10:30:00+08:00`, stepped: true },
    { clock: `${FRIDAY}T12:00:00+08:00`, stepped: true }, // lunch
    { clock: `${FRIDAY}T14:59:00+08:00`, stepped: true },
    { clock: `${FRIDAY}T15:30:00+08:00`, stepped: true }, // after the close, before Friday's table
    { clock: `${FRIDAY}T17:00:00+08:00`, stepped: true, table: FRIDAY }, // Friday's table and states built, the histories through Friday
    { clock: `${FRIDAY}T23:00:00+08:00`, stepped: true },
    { clock: '2026-11-21T10:30:00+08:00', stepped: true }, // Saturday
    { clock: '2026-11-23T02:00:00+08:00', stepped: true }, // Monday night before the open: the quote is still Friday's
  ]

  for (const { clock, stepped, table } of CLOCKS) {
    it(`at ${clock}: byte for byte the whole history's answer${stepped ? ', stepped' : ''}`, async () => {
      await resetWorld(clock)
      if (table) await afterClose(CODES, table, at(clock), { keep: true })
      const key = await makeKey('unlimited')
      for (const code of CODES) {
        const r = await bothWays(code, key)
        expect(r.body, code).toMatchObject({ ok: true, history: 'store' })
        expect(r.stepped, `${code} at ${clock}`).toBe(r.whole)
        expect(r.wholeReads, code).toContain(historyKey(code))
        if (stepped) {
          expect(r.steppedReads, code).not.toContain(historyKey(code))
          expect(r.steppedReads.some(isStateKey), code).toBe(true)
          expect(r.body.data[0].date, code).toBe(clock < '2026-11-20T09:30' ? '2026-11-19' : FRIDAY)
        } else expect(r.steppedReads, code).toContain(historyKey(code))
      }
      if (NEW) {
        // no history to step to: the channel's bars, as before
        const r = await bothWays(NEW, key)
        expect(r.stepped).toBe(r.whole)
        expect(r.body).toMatchObject({ ok: true, history: 'channel' })
      }
    }, 60_000)
  }

  it('found the stocks it meant to ask for', () => {
    expect(YOUNG).toBeDefined()
    expect(NEW).toBeDefined()
  })
})

describe('/v1/technical of a suspended stock', () => {
  it('is its latest row, from the whole history (there is no bar of the day to step with)', async () => {
    // Suspensions fall on Tuesday to Thursday in the model: Thursday, with Wednesday's table and states.
    const clock = '2026-11-19T10:30:00+08:00'
    await resetWorld(clock)
    const suspended = stocks.find((i) => i.listDate < '2025-01-01' && market.live(i, at(clock)).state === 'suspended')!.code
    await afterClose([suspended, 'sz000001'], '2026-11-18', at('2026-11-18T17:00:00+08:00'))
    const key = await makeKey('unlimited')
    const r = await bothWays(suspended, key)
    expect(r.stepped).toBe(r.whole)
    expect(r.body).toMatchObject({ ok: true, history: 'store', data: [{ date: '2026-11-18' }] })
    expect(r.steppedReads).toContain(historyKey(suspended))
    const plain = await bothWays('sz000001', key)
    expect(plain.stepped).toBe(plain.whole)
    expect(plain.steppedReads).not.toContain(historyKey('sz000001'))
  }, 60_000)
})

describe('/v1/technical on an ex-date', () => {
  it('computes over the whole history (every earlier price is adjusted again), not from the state', async () => {
    const clock = '2026-06-17T10:30:00+08:00'
    await resetWorld(clock)
    const ex = stocks.find((i) => market.actions(i, at(clock)).some((a) => a.exDate === '2026-06-17' && a.cash > 0) && hasTraded(market.live(i, at(clock))))!
    await afterClose([ex.code, 'sz000001'], '2026-06-16', at('2026-06-16T17:00:00+08:00'))
    const key = await makeKey('unlimited')
    const r = await bothWays(ex.code, key)
    expect(r.stepped).toBe(r.whole)
    expect(r.steppedReads).toContain(historyKey(ex.code))
    expect(r.body.data[0].date).toBe('2026-06-17')
    // … while a stock without an action that day is stepped
    const plain = await bothWays('sz000001', key)
    expect(plain.stepped).toBe(plain.whole)
    expect(plain.steppedReads).not.toContain(historyKey('sz000001'))
  }, 60_000)
})
