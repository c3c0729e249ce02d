import { beforeEach, describe, expect, it } from 'vitest'
import { market } from '../src/emulator/market/index'
import { fenbuKey } from '../src/emulator/market/breadth'
import { valuationAt } from '../src/emulator/market/valuation'
import { bookValuePerShare, epsTtm } from '../src/emulator/market/fundamentals'
import { valuationByBoard } from '../src/domain/market-valuation'
import { writeFactorTable } from '../src/store/factor-table'
import { isMarginTarget, marginDay } from '../src/emulator/market/margin'
import { env } from 'cloudflare:test'
import { factors, roundPrice } from '../src/domain/adjust'
import { buildHistory } from '../src/jobs/build-history'
import { collectRows, stagedDayRows, writeDayTables } from '../src/jobs/day-tables'
import { channelSource } from '../src/jobs/eastmoney-source'
import type { History } from '../src/store/shapes'
import { ANONYMOUS, fault, getJson, resetWorld, upstreamRequests } from './helpers'
import { services } from './store-app'

const INDEXES = ['sh000001', 'sz399001', 'sz399006', 'sh000688', 'bj899050']

describe('GET /v1/market-overview', () => {
  beforeEach(() => resetWorld())

  describe('summary (default)', () => {
    it('gives the headline indexes at /v1/quote\'s levels and the changedist breadth', async () => {
      const { status, body } = await getJson('/v1/market-overview')
      expect(status).toBe(200)
      expect(body).toMatchObject({ ok: true, endpoint: 'market-overview', data: { type: 'summary', date: '2026-11-20' } })
      expect(body.as_of).toMatch(/^2026-11-20T10:\d\d:\d\d\+08:00$/)
      expect(body.data.indexes.map((i: any) => i.code)).toEqual(INDEXES)
      for (const i of body.data.indexes) {
        const q = (await getJson(`/v1/quote?code=${i.code}&count=2`)).body
        expect(i.last).toBe(Number(q.data[0].last))
        expect(i.change).toBeCloseTo(Number(q.data[0].last) - Number(q.data[1].last), 2)
      }
      const cd = (await getJson('/v1/changedist')).body.data
      expect(body.data.breadth).toEqual({
        date: cd.date, computed_at: cd.computed_at, traded: cd.traded, advancers: cd.advancers, decliners: cd.decliners,
        unchanged: cd.unchanged, limit_up: cd.limit_up, limit_down: cd.limit_down, turnover_sh_sz: cd.turnover.sh_sz,
      })
    }, 90_000)

    it('is shared between callers, anonymous included', async () => {
      await getJson('/v1/market-overview?type=summary')
      const before = await upstreamRequests()
      expect((await getJson('/v1/market-overview', ANONYMOUS)).body).toMatchObject({ ok: true, tier: 'free', data: { type: 'summary' } })
      expect(await upstreamRequests()).toEqual(before)
    }, 90_000)

    it('keeps the indexes with a notice when the market list fails', async () => {
      await fault('eastmoney', 'http')
      await fault('tencent', 'http')
      const { body } = await getJson('/v1/market-overview')
      expect(body).toMatchObject({ ok: true, source: 'emulator:sina', data: { breadth: null } })
      expect(body.notice).toMatch(/breadth unavailable/)
      expect(body.data.indexes).toHaveLength(5)
    })
  })

  it('trade: board volumes and amounts add up to the market and to changedist\'s turnover', async () => {
    const { body } = await getJson('/v1/market-overview?type=trade')
    expect(body).toMatchObject({ ok: true, source: 'emulator:eastmoney', data: { type: 'trade', date: '2026-11-20' } })
    const { boards, total } = body.data
    expect(boards.map((b: any) => b.board)).toEqual(['sh-main', 'star', 'sz-main', 'chinext', 'bj'])
    expect(boards.reduce((s: number, b: any) => s + b.amount, 0)).toBeCloseTo(total.amount, 0)
    expect(boards.reduce((s: number, b: any) => s + b.stocks, 0)).toBe(total.stocks)
    expect(boards.reduce((s: number, b: any) => s + b.amount_share_pct, 0)).toBeCloseTo(100, 0)
    const cd = (await getJson('/v1/changedist')).body.data
    expect(total.stocks).toBe(cd.total)
    expect(total.traded).toBe(cd.traded)
    expect(total.amount).toBeCloseTo(cd.turnover.sh_sz + cd.turnover.bj, 0)
    expect(boards[4].amount).toBeCloseTo(cd.turnover.bj, 0)
  }, 90_000)

  it('interval: changes over 5/20/60/250 sessions from the /v1/quote series', async () => {
    const { body } = await getJson('/v1/market-overview?type=interval')
    expect(body).toMatchObject({ ok: true, data: { type: 'interval', date: '2026-11-20' } })
    const sh = body.data.indexes[0]
    expect(sh.code).toBe('sh000001')
    const q = (await getJson('/v1/quote?code=sh000001&count=251')).body.data
    expect(sh.last).toBe(Number(q[0].last))
    for (const n of [5, 20, 60, 250]) {
      const base = Number(q[n].last)
      expect(sh[`change_pct_${n}`]).toBeCloseTo(((sh.last - base) / base) * 100, 2)
    }
    // 北证50 started in 2022: it has 250 sessions.
    expect(body.data.indexes.find((i: any) => i.code === 'bj899050').change_pct_250).not.toBeNull()
  })

  describe('updown', () => {
    it('is the previous session during trading hours, counted from the daily bars', async () => {
      const { body } = await getJson('/v1/market-overview?type=updown')
      expect(body).toMatchObject({ ok: true, source: 'emulator:eastmoney', as_of: '2026-11-19', data: { type: 'updown', date: '2026-11-19' } })
      const d = body.data
      expect(d.buckets).toHaveLength(23)
      expect(d.advancers + d.decliners + d.unchanged).toBe(d.total)
      // The same count straight from the market model's bars of that day.
      let total = 0
      let up = 0
      let limitUp = 0
      for (const inst of market.instruments()) {
        if (inst.kind !== 'stock' || inst.listDate > '2026-11-19') continue
        const [bar] = market.dailyBars(inst, '2026-11-19', '2026-11-19', Date.parse('2026-11-20T10:30:00+08:00'))
        if (!bar) continue
        total++
        if (bar.close > bar.preClose) up++
        if (fenbuKey(bar.close, bar.preClose, inst.limit, 2) === 11) limitUp++
      }
      expect(d).toMatchObject({ total, advancers: up, limit_up: limitUp })
    }, 90_000)

    it('is today after the close', async () => {
      await resetWorld('2026-11-20T16:00:00+08:00')
      const { body } = await getJson('/v1/market-overview?type=updown')
      expect(body).toMatchObject({ ok: true, data: { date: '2026-11-20' } })
    }, 90_000)

    it('answers ok:false when the upstream fails', async () => {
      await fault('eastmoney', 'garbage')
      const { body } = await getJson('/v1/market-overview?type=updown')
      expect(body).toMatchObject({ ok: false, code: 'UPSTREAM_UNAVAILABLE', data: null })
    })
  })

  describe('rotation', () => {
    it('ranks the industry boards by today and by 5 sessions, as /v1/quote and /v1/kline see them', async () => {
      const { body } = await getJson('/v1/market-overview?type=rotation')
      expect(body).toMatchObject({ ok: true, source: 'emulator:eastmoney', data: { type: 'rotation', date: '2026-11-20' } })
      const { today, five_days, boards } = body.data
      expect(boards).toBe(market.instruments().filter((i) => i.kind === 'sector').length)
      expect(today.best).toHaveLength(5)
      const changes = [...today.best, ...today.worst].map((b: any) => b.change_pct)
      expect(changes.slice(0, 5)).toEqual([...changes.slice(0, 5)].sort((a, b) => b - a))
      expect(today.best[4].change_pct).toBeGreaterThanOrEqual(today.worst[0].change_pct)
      expect(five_days.best[0].change_pct_5).toBeGreaterThanOrEqual(five_days.worst[0].change_pct_5)
      // The top board's numbers are its own quote's and daily bars'.
      const top = today.best[0]
      const q = (await getJson(`/v1/quote?code=${top.code}&count=6`)).body.data
      expect(top.last).toBe(Number(q[0].last))
      expect(top.change_pct).toBeCloseTo(((Number(q[0].last) - Number(q[1].last)) / Number(q[1].last)) * 100, 2)
      const fd = five_days.best[0]
      const k = (await getJson(`/v1/quote?code=${fd.code}&count=6`)).body.data
      expect(fd.change_pct_5).toBeCloseTo(((Number(k[0].last) - Number(k[5].last)) / Number(k[5].last)) * 100, 1)
    })

    it('answers ok:false when the board list fails', async () => {
      await fault('eastmoney', 'empty')
      const { body } = await getJson('/v1/market-overview?type=rotation')
      expect(body).toMatchObject({ ok: false, code: 'NO_DATA', data: null })
    })
  })

  it('valuation: medians and aggregates over every stock, from the fundamentals every view uses', async () => {
    const { body } = await getJson('/v1/market-overview?type=valuation')
    expect(body).toMatchObject({ ok: true, source: 'emulator:eastmoney', data: { type: 'valuation', date: '2026-11-20' } })
    const d = body.data
    const now = Date.parse('2026-11-20T10:30:00+08:00')
    const pes: number[] = []
    let loss = 0
    let listed = 0
    for (const inst of market.instruments()) {
      if (inst.kind !== 'stock' || inst.listDate > '2026-11-20') continue
      listed++
      const v = valuationAt(market, inst, market.live(inst, now).bar.close, now)
      if (v.peTtm === null) continue
      const pe = Math.round(v.peTtm * 100) / 100
      if (pe > 0) pes.push(pe)
      else if (pe < 0) loss++
    }
    pes.sort((a, b) => a - b)
    const mid = pes.length >> 1
    const median = pes.length % 2 ? pes[mid] : Math.round(((pes[mid - 1] + pes[mid]) / 2) * 100) / 100
    expect(d).toMatchObject({ stocks: listed, pe_ttm_median: median, loss_making: loss })
    expect(d.pe_ttm_overall).toBeGreaterThan(0)
    expect(d.pb_overall).toBeGreaterThan(0)
    expect(d.boards.map((b: any) => b.board)).toEqual(['sh-main', 'star', 'sz-main', 'chinext', 'bj'])
    expect(d.boards.reduce((s: number, b: any) => s + b.stocks, 0)).toBe(d.stocks)
    expect(d.boards.reduce((s: number, b: any) => s + b.market_cap, 0)).toBeCloseTo(d.market_cap, -3)
  }, 90_000)

  it('valuation: with Eastmoney\'s list down, the same figures over the newest stored factor table (stored data standing in)', async () => {
    await resetWorld('2026-11-20T16:00:00+08:00')
    const date = '2026-11-20'
    const now = Date.parse('2026-11-20T16:00:00+08:00')
    // The columns the after-close job writes, for forty stocks, from the same fundamentals every view uses.
    const insts = market.instruments().filter((i) => i.kind === 'stock' && i.listDate < '2024-01-01').slice(0, 40)
    const close = insts.map((i) => market.dailyBars(i, date, date, now)[0]?.close ?? null)
    const eps = insts.map((i) => epsTtm(market, i, date, now))
    const div = (a: number | null, b: number | null) => (a === null || b === null || b <= 0 ? null : a / b)
    await writeFactorTable(env.STORE, {
      market: 'hs', date, built_at: new Date(now).toISOString(), codes: insts.map((i) => i.code), names: insts.map((i) => i.name),
      columns: { ClosePrice: close, TotalShares: insts.map((i) => i.totalShares), EPS_TTM: eps, PE_TTM: insts.map((_, k) => div(close[k], eps[k])), PB: insts.map((i, k) => div(close[k], bookValuePerShare(market, i, date, now))) },
    })
    await fault('eastmoney', 'http')
    const { body } = await getJson('/v1/market-overview?type=valuation')
    expect(body).toMatchObject({ ok: true, source: 'store', as_of: date, data: { type: 'valuation', date }, notice: expect.stringMatching(/^valuation list: eastmoney: .*computed instead from the factor table of 2026-11-20/) })
    // Eastmoney's list after that close prints exactly these ratios (2 decimals) and caps.
    const r2 = (x: number | null) => (x === null ? null : Math.round(x * 100) / 100)
    const want = valuationByBoard(insts.map((i, k) => {
      const v = valuationAt(market, i, close[k]!, now)
      return { code: i.code, marketCap: Math.round(i.totalShares! * close[k]!), peTtm: r2(v.peTtm), pb: r2(v.pb) }
    }))
    expect(body.data).toMatchObject({ stocks: want.all.stocks, loss_making: want.all.loss_making, pe_ttm_median: want.all.pe_ttm_median, market_cap: want.all.market_cap })
    // The job's PB is close / the latest report's BPS (the 业绩报表's), the book value the list's PB divides by.
    expect(want.all.pb_median).not.toBeNull()
    expect(body.data.pb_median).toBe(want.all.pb_median)
    expect(body.data.pb_overall).toBeCloseTo(want.all.pb_overall!, 1)
    expect(body.data.pe_ttm_overall).toBeCloseTo(want.all.pe_ttm_overall!, 1)
    expect(body.data.boards.map((b: any) => b.stocks)).toEqual(want.boards.map((b) => b.stocks))
  })

  it('margin: the previous session\'s market totals are the sums of the stocks\' margin days', async () => {
    const { body } = await getJson('/v1/market-overview?type=margin')
    expect(body).toMatchObject({ ok: true, source: 'emulator:eastmoney', as_of: '2026-11-19', data: { type: 'margin', date: '2026-11-19', previous_date: '2026-11-18' } })
    const d = body.data
    const now = Date.parse('2026-11-20T10:30:00+08:00')
    let financing = 0
    let lending = 0
    for (const inst of market.instruments()) {
      if (!isMarginTarget(inst)) continue
      const bars = market.dailyBars(inst, '2026-10-20', '2026-11-19', now).filter((b) => b.volume > 0)
      const i = bars.length - 1
      if (i < 1 || bars[i].date !== '2026-11-19') continue
      const m = marginDay(inst, bars[i], bars[i - 1].date, bars[i - 1].close)
      if (!m) continue
      financing += m.financingBalance
      lending += m.lendingBalance
    }
    // The report rounds to 1 CNY (8 decimals of 100 million).
    expect(Math.abs(d.financing_balance - financing)).toBeLessThan(2)
    expect(Math.abs(d.lending_balance - lending)).toBeLessThan(2)
    expect(d.total_balance).toBeCloseTo(d.financing_balance + d.lending_balance, -1)
    expect(d.financing_balance_change).not.toBeNull()
  }, 90_000)

  it('answers ok:false when every index quote fails', async () => {
    await fault('tencent', 'http')
    await fault('eastmoney', 'http')
    await fault('sina', 'http')
    const { body } = await getJson('/v1/market-overview')
    expect(body).toMatchObject({ ok: false, code: 'UPSTREAM_UNAVAILABLE', data: null })
  })

  it('technical: ok:false NO_DATA before a technicals table exists, then the breadth of the newest one, as /v1/technical-batch shows it', async () => {
    expect((await getJson('/v1/market-overview?type=technical')).body).toMatchObject({ ok: false, code: 'NO_DATA', data: null })
    // The tables of 2026-11-19 for a few stocks, built as the after-close job builds them.
    const source = channelSource(services)
    const histories: History[] = []
    for (const inst of market.instruments().filter((i) => i.kind === 'stock' && i.listDate < '2024-01-01').slice(0, 12)) {
      const h = await buildHistory(source, inst.code, '2026-11-19')
      if (h) histories.push(h)
    }
    const lines = histories.flatMap((h) => stagedDayRows(h, '2026-11-19', '2026-11-19')).map((l) => l.slice(11))
    await writeDayTables(env.STORE, '2026-11-19', collectRows(lines).values(), {}, Date.parse('2026-11-20T10:30:00+08:00'))
    await resetWorld() // the shared answer above was a failure and is not kept; start from a fresh failover
    const { body } = await getJson('/v1/market-overview?type=technical')
    expect(body).toMatchObject({ ok: true, source: 'store', as_of: '2026-11-19', data: { type: 'technical', date: '2026-11-19' } })
    const batch = (await getJson(`/v1/technical-batch?date=2026-11-19&codes=${histories.map((h) => h.code).join(',')}`)).body
    const rows = batch.data.filter((x: any) => x.ok).map((x: any) => x.data)
    expect(body.data.stocks).toBe(rows.length)
    for (const [key, ma] of [['above_ma20', 'ma_MA_20'], ['above_ma60', 'ma_MA_60'], ['above_ma250', 'ma_MA_250']] as const) {
      const have = rows.filter((r: any) => r[ma] !== null)
      expect(body.data[key], key).toMatchObject({ stocks: have.length, above: have.filter((r: any) => r.closePrice > r[ma]).length })
    }
    // A 52-week high is a high equal to the highest of the last 250 sessions (qfq), from the stored history.
    const highs = histories.filter((h) => {
      const i = h.t.length - 1
      const f = factors({ t: h.t, c: h.c, act: h.act }, 'qfq')
      const adj = h.h.map((x, k) => roundPrice(x * f[k]))
      return i >= 249 && Math.max(...adj.slice(i - 249, i + 1)) === adj[i]
    })
    expect(body.data.new_highs_52w).toBe(highs.length)
  }, 90_000)

  it('refuses an unknown type with a 422 listing the valid ones', async () => {
    const { status, body } = await getJson('/v1/market-overview?type=foo')
    expect(status).toBe(422)
    expect(body.detail[0].loc).toEqual(['query', 'type'])
    expect(body.detail[0].msg).toMatch(/summary, trade, interval/)
  })
})
