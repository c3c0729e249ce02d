import { env } from 'cloudflare:test'
import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { addDays } from '../src/domain/dates'
import { market } from '../src/emulator/market/index'
import { buildHistory } from '../src/jobs/build-history'
import { channelSource } from '../src/jobs/eastmoney-source'
import { writeHistory } from '../src/store/history'
import { fault, getJson, makeKey, resetWorld } from './helpers'
import { services, storeJson } from './store-app'

const bearer = (key: string) => ({ headers: { authorization: `Bearer ${key}` } })
const NOW = Date.parse('2026-11-20T10:30:00+08:00')
const stocks = market.instruments().filter((i) => i.kind === 'stock')

/** A stock with a 2026 ex-date that pays cash and another with bonus shares, for the clocks around it. */
const CASH = stocks.find((i) => market.actions(i).some((a) => a.exDate.startsWith('2026') && a.cash > 0 && a.bonus === 0))!
const CASH_2026 = market.actions(CASH).find((a) => a.exDate.startsWith('2026'))!
const BONUS = stocks.find((i) => market.actions(i, NOW).filter((a) => a.bonus > 0).length >= 1 && market.actions(i, NOW).some((a) => a.exDate >= '2024-01-01'))!

/** The plan rows that are implemented, as actions. */
const implemented = (rows: any[]) => rows.filter((r) => r.status === 'implemented').map((r) => ({ exDate: r.ex_date, cash: r.cash, bonus: r.bonus_transfer_shares }))
const close = (a: number, b: number) => Math.abs(a - b) < 1e-6

describe('GET /v1/dividend', () => {
  beforeEach(() => resetWorld())
  afterAll(() => resetWorld())

  it('lists three years of plans newest first; every implemented one is an action the qfq prices use, and none is missing', async () => {
    for (const inst of [market.byCode('sh600519')!, BONUS]) {
      const { status, body } = await getJson(`/v1/dividend?code=${inst.code}`)
      expect(status).toBe(200)
      expect(body).toMatchObject({ ok: true, endpoint: 'dividend', source: 'emulator:eastmoney', as_of: '2026-11-20' })
      const got = implemented(body.data)
      const want = market.actions(inst, NOW).filter((a) => a.exDate >= '2023-11-20').reverse()
      expect(got.map((a) => a.exDate)).toEqual(want.map((a) => a.exDate))
      got.forEach((a, k) => {
        expect(close(a.cash, want[k].cash), `${inst.code} cash on ${a.exDate}`).toBe(true)
        expect(close(a.bonus, want[k].bonus), `${inst.code} bonus on ${a.exDate}`).toBe(true)
      })
      for (const r of body.data) {
        expect(r.record_date < r.ex_date).toBe(true)
        expect(r.bonus_transfer_shares).toBeCloseTo(r.bonus_shares + r.transfer_shares, 9)
      }
    }
  })

  it('has every implemented plan of ten years as the very adjustment /v1/kline-full applies on its ex-date', async () => {
    const key = await makeKey('standard')
    for (const inst of [market.byCode('sh600519')!, BONUS]) {
      await writeHistory(env.STORE, (await buildHistory(channelSource(services), inst.code, '2026-11-19'))!)
      const plans = (await getJson(`/v1/dividend?code=${inst.code}&years=10`)).body.data.filter((r: any) => r.status === 'implemented')
      expect(plans.length).toBeGreaterThan(1)
      const full = async (fq: string) => (await storeJson(`/v1/kline-full?code=${inst.code}&fq=${fq}&start=2016-08-08`, { key })).body.data
      const [qfq, nofq] = await Promise.all([full('qfq'), full('nofq')])
      const at = new Map<string, number>(nofq.map((r: any, i: number) => [r.time, i]))
      for (const p of plans.filter((x: any) => x.ex_date > nofq[0].time)) {
        const i = at.get(p.ex_date)!
        expect(i, `${inst.code} traded on its ex-date ${p.ex_date}`).toBeGreaterThan(0)
        // The qfq/nofq ratio steps down by ((P − cash) / (1 + bonus)) / P across the ex-date, P the close before it.
        const ratio = (k: number) => Number(qfq[k].close) / Number(nofq[k].close)
        const P = Number(nofq[i - 1].close)
        const k = (P - p.cash) / (1 + p.bonus_transfer_shares) / P
        // qfq closes carry 2 decimals: allow their half-cent rounding on both days.
        const slack = 1.5 * (0.005 / Number(qfq[i - 1].close) + 0.005 / Number(qfq[i].close)) + 1e-6
        expect(Math.abs(ratio(i - 1) / ratio(i) - k), `${inst.code} ${p.ex_date}`).toBeLessThanOrEqual(slack)
      }
      // And no adjustment step without its plan: wherever the ratio steps, an implemented plan goes ex.
      const exDates = new Set(plans.map((x: any) => x.ex_date))
      for (let i = 1; i < nofq.length; i++) {
        const step = Number(qfq[i - 1].close) / Number(nofq[i - 1].close) / (Number(qfq[i].close) / Number(nofq[i].close))
        const slack = 1.5 * (0.005 / Number(qfq[i - 1].close) + 0.005 / Number(qfq[i].close)) + 1e-6
        if (Math.abs(step - 1) > slack) expect(exDates.has(nofq[i].time), `${inst.code} qfq steps on ${nofq[i].time}`).toBe(true)
      }
    }
  })

  it('agrees with the qfq closes of /v1/kline across an ex-date', async () => {
    const inst = market.byCode('sh600519')!
    const row = (await getJson(`/v1/dividend?code=${inst.code}`)).body.data[0]
    const bars = market.dailyBars(inst, addDays(row.ex_date, -10), row.ex_date, NOW)
    const before = bars.at(-2)!
    // The forward-adjusted close before the ex-date is the raw one scaled by (P − cash) / (1 + bonus) / P.
    const k = (before.close - row.cash) / (1 + row.bonus_transfer_shares) / before.close
    const kline = (await getJson(`/v1/kline?code=${inst.code}&start=${before.date}&end=${before.date}`)).body.data[0]
    const later = market.actions(inst, NOW).filter((a) => a.exDate > row.ex_date)
    const rest = market.qfqFactor(inst, row.ex_date, NOW)
    expect(later.length === 0 || rest !== 1).toBe(true)
    expect(Number(kline.last)).toBeCloseTo(before.close * k * rest, 1)
  })

  it('shows a stock that just went ex today as implemented, paid today', async () => {
    await resetWorld(`${CASH_2026.exDate}T10:30:00+08:00`)
    const { body } = await getJson(`/v1/dividend?code=${CASH.code}&years=1`)
    expect(body.data[0]).toMatchObject({ status: 'implemented', status_text: '实施分配', ex_date: CASH_2026.exDate, pay_date: CASH_2026.exDate, bonus_transfer_shares: 0 })
    expect(close(body.data[0].cash, CASH_2026.cash)).toBe(true)
    // /v1/kline already adjusts yesterday's close for it: raw close × (P − cash) / P.
    const clock = Date.parse(`${CASH_2026.exDate}T10:30:00+08:00`)
    const prev = market.dailyBars(CASH, addDays(CASH_2026.exDate, -10), addDays(CASH_2026.exDate, -1), clock).at(-1)!
    const bar = (await getJson(`/v1/kline?code=${CASH.code}&start=${prev.date}&end=${prev.date}`)).body.data[0]
    expect(Number(bar.last)).toBeCloseTo(prev.close - body.data[0].cash, 1)
  })

  it('shows an announced plan before its ex-date with its stage and no dates yet', async () => {
    await resetWorld(`${addDays(CASH_2026.exDate, -20)}T10:30:00+08:00`)
    const { body } = await getJson(`/v1/dividend?code=${CASH.code}`)
    expect(body.data[0]).toMatchObject({ status: 'approved', status_text: '股东大会决议通过', ex_date: null, record_date: null, pay_date: null })
    expect(close(body.data[0].cash, CASH_2026.cash)).toBe(true)
    // Not an action yet: the prices are not adjusted for it.
    expect(market.actions(CASH, Date.parse(`${addDays(CASH_2026.exDate, -20)}T10:30:00+08:00`)).map((a) => a.exDate)).not.toContain(CASH_2026.exDate)
  })

  it('narrows to years', async () => {
    const three = (await getJson('/v1/dividend?code=sh600519')).body.data
    const one = (await getJson('/v1/dividend?code=sh600519&years=1')).body.data
    const ten = (await getJson('/v1/dividend?code=sh600519&years=10')).body.data
    expect(one.length).toBeLessThanOrEqual(three.length)
    expect(ten.length).toBeGreaterThan(three.length)
    for (const r of one) expect((r.ex_date ?? r.plan_notice_date) >= '2025-11-20').toBe(true)
  })

  it('fails over to Sina\'s distribution page with the same implemented plans when Eastmoney fails', async () => {
    const want = (await getJson('/v1/dividend?code=sh600519&years=10')).body.data
    await resetWorld()
    await fault('eastmoney', 'http')
    const { body } = await getJson('/v1/dividend?code=sh600519&years=10')
    expect(body).toMatchObject({ ok: true, source: 'emulator:sina', as_of: '2026-11-20' })
    expect(body.stale).toBeUndefined()
    const fields = (r: any) => ({ ex_date: r.ex_date, record_date: r.record_date, cash: r.cash, bonus_transfer_shares: r.bonus_transfer_shares, status: r.status })
    expect(body.data.filter((r: any) => r.status === 'implemented').map(fields)).toEqual(want.filter((r: any) => r.status === 'implemented').map(fields))
    // What Sina's page does not give is null, never guessed.
    for (const r of body.data) expect(r).toMatchObject({ report_date: null, plan_notice_date: null, pay_date: null, plan: null })
  })

  it('answers ok:false, not counted, when Eastmoney and Sina fail', async () => {
    const key = await makeKey('trial')
    await fault('eastmoney', 'http')
    await fault('sina', 'http')
    const { body } = await getJson('/v1/dividend?code=sh600519', bearer(key))
    expect(body).toMatchObject({ ok: false, code: 'UPSTREAM_UNAVAILABLE', data: [] })
    await new Promise((r) => setTimeout(r, 50))
    expect((await getJson('/v1/usage', bearer(key))).body.data.endpoints).toEqual({})
  })

  it('answers ok:false NO_DATA for a well-formed code the market does not have', async () => {
    const unknown = Array.from({ length: 1000 }, (_, i) => `sh60${String(i).padStart(4, '0')}`).find((c) => !market.byCode(c))!
    const { body } = await getJson(`/v1/dividend?code=${unknown}`)
    expect(body).toMatchObject({ ok: false, code: 'NO_DATA', data: [] })
  })

  it.each([
    ['', 'code'],
    ['?code=sh600519,sz000001', 'code'],
    ['?code=sh000001', 'code'],
    ['?code=hk00700', 'code'],
    ['?code=sh600519&years=0', 'years'],
    ['?code=sh600519&years=21', 'years'],
    ['?code=sh600519&years=two', 'years'],
  ])('answers 422 for %s naming %s', async (qs, field) => {
    const { status, body } = await getJson('/v1/dividend' + qs)
    expect(status).toBe(422)
    expect(body.detail[0].loc).toEqual(['query', field])
  })

  it('needs a key', async () => {
    expect((await getJson('/v1/dividend?code=sh600519', { anonymous: true })).status).toBe(401)
  })
})
