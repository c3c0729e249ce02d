/**
 * /v1/chip from the history store: the stored raw bars (forward-adjusted exactly as /v1/kline-full
 * serves them) with each day's stored turnover rate give the distribution the day-K-line channel
 * gives for the same days (to the channel's own qfq rounding: Eastmoney's qfq prices may differ
 * from ours by 0.01 on a few bars); a past day costs no upstream request; a store without the
 * rates falls back to the channel.
 */
import { env } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { market } from '../src/emulator/market/index'
import { buildHistory } from '../src/jobs/build-history'
import { channelSource } from '../src/jobs/eastmoney-source'
import { readHistory, writeHistory } from '../src/store/history'
import { historyKey } from '../src/store/keys'
import { chipDistribution } from '../src/domain/chip'
import { makeKey, resetWorld, SESSION_CLOCK, upstreamRequests } from './helpers'
import { services, storeJson } from './store-app'

const NOW = Date.parse(SESSION_CLOCK)
/** A stock with an ex-date inside the chip's window (about the last 210 sessions): qfq moves its older bars. */
const EX = market
  .instruments()
  .find((i) => i.kind === 'stock' && i.code !== 'sh600519' && market.actions(i, NOW).some((a) => a.exDate > '2026-03-01' && a.exDate < '2026-11-01'))!
const CODES = ['sh600519', 'sz000001', EX.code]
const PAST = '2026-11-13'

/**
 * The same distribution to the channel's qfq rounding: every price within a cent or two (a bar
 * whose low moved by 0.01 moves the bucket grid), every share within 2e-5, the ratios within 0.05.
 */
function expectSameDistribution(got: any, want: any) {
  expect({ ...got, distribution: [] }).toMatchObject({ code: want.code, date: want.date, bars: want.bars, first_date: want.first_date })
  for (const k of ['close', 'average_cost', 'cost_90_low', 'cost_90_high', 'cost_70_low', 'cost_70_high']) expect(Math.abs(got[k] - want[k]), k).toBeLessThanOrEqual(0.025)
  for (const k of ['profit_ratio', 'concentration_90', 'concentration_70']) expect(Math.abs(got[k] - want[k]), k).toBeLessThanOrEqual(0.05)
  expect(got.distribution).toHaveLength(want.distribution.length)
  got.distribution.forEach((b: any, i: number) => {
    expect(Math.abs(b.price - want.distribution[i].price)).toBeLessThanOrEqual(0.025)
    expect(Math.abs(b.share - want.distribution[i].share)).toBeLessThanOrEqual(2e-5)
  })
}

/** The distribution over /v1/kline-full's qfq bars up to `end` with the stored turnover rates: what the store path must give exactly. */
async function fromKlineFull(code: string, end: string) {
  const { body } = await storeJson(`/v1/kline-full?code=${code}&end=${end}`, { key })
  const h = (await readHistory(env.STORE, code))!
  const rows = body.data.slice(-210)
  // kline-full starts at the history's first bar, so row j of its answer is the history's bar j.
  const first = body.data.length - rows.length
  return chipDistribution(rows.map((r: any, i: number) => ({ date: r.time, open: +r.open, high: +r.high, low: +r.low, close: +r.close, turnover: h.tr[first + i]! })))
}

let key = ''
const chip = (qs: string) => storeJson('/v1/chip' + qs, { key })
/** The channel's answers for each query, taken while the store is empty. */
const fromChannel = new Map<string, any>()

beforeAll(async () => {
  await resetWorld(SESSION_CLOCK)
  key = await makeKey('pro')
  for (const code of CODES) {
    for (const qs of [`?code=${code}`, `?code=${code}&date=${PAST}`]) {
      const { body } = await chip(qs)
      expect(body, qs).toMatchObject({ ok: true, history: 'channel', source: 'emulator:eastmoney' })
      fromChannel.set(qs, body)
    }
  }
  // Histories through the day before the session, built through the real upstream path (emulator
  // wire → Eastmoney raw K-line parser, turnover rate f61 included → store), as the backfill builds them.
  const source = channelSource(services)
  for (const code of CODES) await writeHistory(env.STORE, (await buildHistory(source, code, '2026-11-19'))!)
})

describe('GET /v1/chip from the history store', () => {
  it('stores each day\'s turnover rate beside the raw bars', async () => {
    const h = (await readHistory(env.STORE, 'sh600519'))!
    expect(h.tr).toHaveLength(h.t.length)
    expect(h.tr.every((v) => typeof v === 'number' && v > 0)).toBe(true)
  })

  it.each(CODES)('%s: the latest day joins the store to the channel\'s live bar and equals the channel\'s distribution', async (code) => {
    const qs = `?code=${code}`
    const { body } = await chip(qs)
    expect(body).toMatchObject({ ok: true, history: 'store', source: 'emulator:eastmoney', as_of: '2026-11-20' })
    expectSameDistribution(body.data, fromChannel.get(qs).data)
  })

  it.each(CODES)('%s: a past day comes from the store alone, no upstream request, and equals the channel\'s', async (code) => {
    const qs = `?code=${code}&date=${PAST}`
    const before = await upstreamRequests()
    const { body } = await chip(qs)
    expect(await upstreamRequests()).toEqual(before)
    expect(body).toMatchObject({ ok: true, history: 'store', source: 'store', as_of: PAST })
    expectSameDistribution(body.data, fromChannel.get(qs).data)
    const want = await fromKlineFull(code, PAST)
    expect(body.data.average_cost).toBe(want.averageCost)
    expect([body.data.cost_90_low, body.data.cost_90_high, body.data.cost_70_low, body.data.cost_70_high]).toEqual([...want.range90, ...want.range70])
    expect(body.data.distribution.map((b: any) => b.price)).toEqual(want.distribution.map((b) => b.price))
  })

  it('falls back to the channel for a blob from before the turnover column, until the backfill rewrites it', async () => {
    const h = (await readHistory(env.STORE, 'sz000001'))!
    const { tr: _, ...old } = h
    await env.STORE.put(historyKey('sz000001'), JSON.stringify(old))
    const qs = `?code=sz000001&date=${PAST}`
    const { body } = await chip(qs)
    expect(body).toMatchObject({ ok: true, history: 'channel', source: 'emulator:eastmoney' })
    expect(body.data).toEqual(fromChannel.get(qs).data)
    await writeHistory(env.STORE, h)
    expect((await chip(qs)).body).toMatchObject({ ok: true, history: 'store', source: 'store' })
  })

  it('uses the channel for a day the store cannot hold a whole window of (its first bars are 2016-08-08)', async () => {
    const { body } = await chip('?code=sh600519&date=2016-09-01')
    expect(body.history).toBe('channel')
  })

  it('serves the latest day from the store alone while no session is under way (a Saturday)', async () => {
    await resetWorld('2026-11-21T10:00:00+08:00')
    await writeHistory(env.STORE, (await buildHistory(channelSource(services), 'sh600519', '2026-11-20'))!)
    const before = await upstreamRequests()
    const { body } = await chip('?code=sh600519')
    expect(await upstreamRequests()).toEqual(before)
    expect(body).toMatchObject({ ok: true, history: 'store', source: 'store', as_of: '2026-11-20' })
    expect(body.data).toEqual((await chip('?code=sh600519&date=2026-11-20')).body.data)
  })
})
