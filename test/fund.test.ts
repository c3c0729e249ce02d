import { beforeEach, describe, expect, it } from 'vitest'
import { previousTradingDay } from '../src/domain/trading-calendar'
import { listings } from '../src/emulator/market/billboard'
import { hasBlockTrades } from '../src/emulator/market/block-trades'
import { market } from '../src/emulator/market/index'
import { ANONYMOUS, fault, getJson, makeKey, resetWorld, SESSION_CLOCK, upstreamRequests } from './helpers'

const NOW = Date.parse(SESSION_CLOCK)
/** At 10:30 on 2026-11-20 the latest published block-trade list is the day before's. */
const LATEST = previousTradingDay('2026-11-20')
const stocks = market.instruments().filter((i) => i.kind === 'stock' && i.listDate < '2024-01-01')
/** A stock with block trades on LATEST. */
const BLOCK = stocks.find((i) => hasBlockTrades(i, LATEST) && market.dailyBars(i, LATEST, LATEST, NOW)[0]?.volume > 0)!
/** A stock on the dragon-tiger board at least once in the last three months. */
const LISTED = stocks.slice(0, 400).find((i) => market.dailyBars(i, '2026-08-20', LATEST, NOW).some((b) => listings(i, b).length > 0))!

/**
 * /v1/fund with rank=true, once the rank is there. The first walk of the emulator's whole market
 * list also generates that market, which on a busy machine can outlast the request deadline or the
 * walk's own budget (the answer then has no rank and says why). The emulator keeps the pages it
 * rendered, so every try gets further: the test waits for the rank, not for a number of tries, and
 * only its own timeout ends the wait.
 */
async function ranked(code: string) {
  for (;;) {
    const r = await getJson(`/v1/fund?code=${code}&rank=true&days=1`)
    const unranked = r.body.code === 'DEADLINE_EXCEEDED' || r.body.data?.data?.money_flow?.[0]?.main_net_rank === null
    if (!unranked) return r
  }
}

const byDate = (rows: any[]) => Object.fromEntries(rows.map((r) => [r.date, r]))

describe('GET /v1/fund', () => {
  beforeEach(() => resetWorld())
  // Calls about other sections pass rank=false: the default starts a walk of the whole market list.

  it('answers the four sections in the sectioned shape', async () => {
    const { status, body } = await getJson('/v1/fund?code=sh600519&rank=false')
    expect(status).toBe(200)
    expect(body).toMatchObject({ ok: true, endpoint: 'fund', source: 'emulator:eastmoney', data: { code: 'sh600519' } })
    expect(body.data.tables.map((t: any) => t.slug)).toEqual(['money_flow', 'top_traders', 'block_trades', 'margin'])
    for (const t of body.data.tables) expect(body.data.data[t.slug]).toEqual(t.rows)
    expect(body.data.data.money_flow).toHaveLength(20)
    expect(body.as_of).toMatch(/^2026-11-20T10:(2|3)\d:\d\d\+08:00$/)
  })

  it('splits today\'s turnover: the eight inflows and outflows add up to /v1/kline\'s day amount', async () => {
    const [fund, kline] = await Promise.all([getJson('/v1/fund?code=sh600519&rank=false'), getJson('/v1/kline?code=sh600519&count=5')])
    const today = fund.body.data.data.money_flow[0]
    expect(today.date).toBe('2026-11-20')
    expect(kline.body.data[0].date).toBe('2026-11-20')
    const classes = ['super', 'large', 'medium', 'small']
    const total = classes.reduce((s, c) => s + today[`${c}_inflow`] + today[`${c}_outflow`], 0)
    expect(total).toBeCloseTo(Number(kline.body.data[0].amount), 0)
    expect(today.amount).toBeCloseTo(Number(kline.body.data[0].amount), 1)
    expect(today.main_net).toBeCloseTo(today.super_net + today.large_net, 0)
    for (const c of classes) {
      expect(today[`${c}_net`]).toBeCloseTo(today[`${c}_inflow`] - today[`${c}_outflow`], 0)
      expect(today[`${c}_ratio`]).toBeCloseTo((today[`${c}_net`] / today.amount) * 100, 1)
    }
    // Past days: nets and ratios only, as the daily upstream gives them; closes are the day bars'.
    const past = fund.body.data.data.money_flow[1]
    expect(past).toMatchObject({ super_inflow: null, amount: null })
    const bars = byDate((await getJson('/v1/kline?code=sh600519&count=5')).body.data)
    expect(past.close).toBeCloseTo(Number(bars[past.date].last), 2)
    // Each past ratio is its net over that day's /v1/kline amount (ratios carry two decimals).
    for (const row of fund.body.data.data.money_flow.slice(1, 5)) {
      const amount = Number(bars[row.date].amount)
      for (const c of ['main', ...classes]) expect(Math.abs(row[`${c}_net`] - (row[`${c}_ratio`] / 100) * amount)).toBeLessThanOrEqual(amount * 0.00005 + 1)
    }
  })

  it('reports block trades that agree with /v1/block-trade, priced inside the day\'s band', async () => {
    const fund = await getJson(`/v1/fund?code=${BLOCK.code}&rank=false`)
    const own = fund.body.data.data.block_trades.filter((t: any) => t.date === LATEST)
    expect(own.length).toBeGreaterThan(0)
    const one = await getJson(`/v1/block-trade?code=${BLOCK.code}&date=${LATEST}`)
    expect(one.body.data).toEqual(own)
    const all = await getJson(`/v1/block-trade?date=${LATEST}`)
    expect(all.body.data.filter((t: any) => t.code === BLOCK.code)).toEqual(own)
    for (const t of own) {
      expect(t.premium_pct).toBeCloseTo((t.price / t.close - 1) * 100, 1)
      expect(t.amount).toBeCloseTo(t.price * t.volume, 0)
      // The band: the previous close (close ÷ (1 + change)) ± the board's limit, to the tick.
      const pre = t.close / (1 + t.change_pct / 100)
      expect(t.price).toBeGreaterThanOrEqual(pre * (1 - BLOCK.limit!) - 0.011)
      expect(t.price).toBeLessThanOrEqual(pre * (1 + BLOCK.limit!) + 0.011)
    }
  })

  it('ranks the stock in the market by main net inflow with rank=true', async () => {
    const a = await ranked('sh600519')
    const b = await ranked('sz000001')
    const [ra, rb] = [a.body.data.data.money_flow[0], b.body.data.data.money_flow[0]]
    for (const r of [ra, rb]) {
      expect(r.main_net_rank).toBeGreaterThanOrEqual(1)
      expect(r.main_net_rank).toBeLessThanOrEqual(r.ranked)
      expect(r.ranked).toBeGreaterThan(5000)
    }
    expect(ra.main_net > rb.main_net).toBe(ra.main_net_rank < rb.main_net_rank)
    const plain = await getJson('/v1/fund?code=sh600519&days=1&rank=false')
    expect(plain.body.data.data.money_flow[0]).toMatchObject({ main_net_rank: null, ranked: null })
  })

  it('ranks by default from one shared walk of the market list: a warm ranking costs no upstream request', async () => {
    const requests = async () => (await upstreamRequests()).eastmoney ?? 0
    const r0 = await requests()
    const first = await ranked('sh600519')
    const walk = (await requests()) - r0
    expect(walk).toBeGreaterThan(50) // the whole list, page by page, plus the stock's own sections
    const r1 = await requests()
    const without = await getJson('/v1/fund?code=sz000001&days=1&rank=false')
    const own = (await requests()) - r1
    const r2 = await requests()
    const byDefault = await getJson('/v1/fund?code=sz000001&days=1')
    expect((await requests()) - r2).toBe(own)
    expect(without.body.data.data.money_flow[0].main_net_rank).toBeNull()
    const row = byDefault.body.data.data.money_flow[0]
    expect(row.main_net_rank).toBeGreaterThanOrEqual(1)
    expect(row.ranked).toBe(first.body.data.data.money_flow[0].ranked)
    expect(byDefault.body.notice).toBeUndefined()
  })

  it('lists dragon-tiger appearances only on days that meet a listing reason', async () => {
    const { body } = await getJson(`/v1/fund?code=${LISTED.code}&rank=false`)
    const rows = body.data.data.top_traders
    expect(rows.length).toBeGreaterThan(0)
    for (const r of rows) {
      const byMove = Math.abs(r.change_pct) >= 6.99
      const byTurnover = r.reasons.some((x: string) => x.includes('换手率'))
      expect(byMove || byTurnover).toBe(true)
      expect(r.net_amount).toBeCloseTo(r.buy_amount - r.sell_amount, 0)
      expect(r.buy_amount + r.sell_amount).toBeLessThan(r.amount)
      expect(r.buyers).toHaveLength(5)
      expect(r.sellers).toHaveLength(5)
    }
    // The listing day is the day /v1/kline shows (its close, where no ex-date since rescaled it).
    const bars = byDate((await getJson(`/v1/kline?code=${LISTED.code}&count=80`)).body.data)
    const comparable = rows.filter((x: any) => bars[x.date] && market.actions(LISTED, NOW).every((a) => a.exDate <= x.date))
    expect(comparable.length).toBeGreaterThan(0)
    for (const r of comparable) {
      expect(Number(bars[r.date].last)).toBeCloseTo(r.close, 2)
      expect(r.amount).toBeCloseTo(Number(bars[r.date].amount), 0)
    }
  })

  it('carries the financing balance from day to day through buying and repaying', async () => {
    const { body } = await getJson('/v1/fund?code=sh600519&days=10&rank=false')
    const m = body.data.data.margin
    expect(m).toHaveLength(10)
    expect(m[0].date < '2026-11-20').toBe(true) // published the next morning
    for (let i = 0; i + 1 < m.length; i++) {
      expect(m[i].financing_balance).toBeCloseTo(m[i + 1].financing_balance + m[i].financing_buy - m[i].financing_repay, 0)
      expect(m[i].total_balance).toBeCloseTo(m[i].financing_balance + m[i].lending_balance, 0)
    }
  })

  it('fails over to Eastmoney\'s mirror host when the first answer fails', async () => {
    await fault('eastmoney', 'http', { count: 1 })
    const { body } = await getJson('/v1/fund?code=sh600519&rank=false')
    expect(body.ok).toBe(true)
    expect(body.errors).toBeUndefined()
  })

  it('is ok:false, not counted, when Eastmoney fails', async () => {
    const key = await makeKey('trial')
    const auth = { headers: { authorization: `Bearer ${key}` } }
    await fault('eastmoney', 'http')
    const { status, body } = await getJson('/v1/fund?code=sh600519&rank=false', auth)
    expect(status).toBe(200)
    expect(body).toMatchObject({ ok: false, code: 'UPSTREAM_UNAVAILABLE', data: null })
    expect(body.error).toContain('eastmoney')
    await new Promise((r) => setTimeout(r, 50)) // settlement runs in waitUntil
    expect((await getJson('/v1/usage', auth)).body.data.endpoints).toEqual({})
  })

  it('is ok:false NO_DATA for a well-formed code that is not listed', async () => {
    const unknown = Array.from({ length: 999 }, (_, i) => `sh600${String(i).padStart(3, '0')}`).find((c) => !market.byCode(c))!
    const { body } = await getJson(`/v1/fund?code=${unknown}&rank=false`)
    expect(body).toMatchObject({ ok: false, code: 'NO_DATA' })
  })

  it('refuses what is not one A-share stock, and a bad days, with a 422 naming the field', async () => {
    for (const [qs, field] of [['', 'code'], ['?code=hk00700', 'code'], ['?code=sh000001', 'code'], ['?code=sh600519,sz000001', 'code'], ['?code=sh600519&days=0', 'days'], ['?code=sh600519&days=121', 'days'], ['?code=sh600519&days=x', 'days'], ['?code=sh600519&rank=yes', 'rank']]) {
      const { status, body } = await getJson('/v1/fund' + qs)
      expect(status, qs).toBe(422)
      expect(body.detail[0].loc).toEqual(['query', field])
    }
  })

  it('needs a key', async () => {
    const { status, body } = await getJson('/v1/fund?code=sh600519', ANONYMOUS)
    expect(status).toBe(401)
    expect(body.code).toBe('KEY_REQUIRED')
  })
})

