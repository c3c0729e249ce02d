import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseSymbol } from '../../domain/symbols'
import { createEmulatorFetch, setClock, setFault, clearFaults } from '../../emulator/control'
import { market } from '../../emulator/market'
import { ChannelError } from '../errors'
import type { ChannelContext } from '../types'
import { fakeContext } from '../testkit'
import { dayFlowUrl, fetchDayFlow, fetchFlowRanks, fetchTodayFlow, parseDayFlow, parseRankPage, parseTodayFlow, todayFlowUrl } from './money-flow'
import capturedMoutaiDays from '../../../test/fixtures/push2/fflow-daykline-sh600519-2026-06-11.json?raw'
import capturedDayRows from '../../../test/fixtures/push2/fflow-daykline-sz000034-rows-2020-06-03.json?raw'
import capturedRank000006 from '../../../test/fixtures/push2/clist-fflow-000006-2026-09-04-153400.json?raw'
import capturedRankSuspended from '../../../test/fixtures/push2/clist-fflow-000004-000005-suspended-2026-09-04.json?raw'
import capturedUlistFlow from '../../../test/fixtures/push2/ulist-flow-600519-000001-601318-2026-07-16.json?raw'

const MOUTAI = parseSymbol('sh600519')
const ctx: ChannelContext = { fetch: createEmulatorFetch(market), timeoutMs: 20_000 }

// upstreams.md §5.4's sample row (akshare stock_individual_fund_flow layout).
const DAYKLINE = JSON.stringify({
  rc: 0, rt: 21, svr: 182481189, lt: 1, full: 0, dlmkts: '',
  data: { code: '600519', market: 1, name: '贵州茅台', tradePeriods: null, klines: ['2025-01-02,-53215000.0,21345000.0,31870000.0,-12000000.0,-41215000.0,-1.64,0.66,0.98,-0.37,-1.27,1520.00,0.76,0.00,0.00'] },
})

const flowRow = {
  f2: 1520, f6: 1000, f12: '600519', f13: 1, f124: 1763605800, f297: 20261120,
  f64: 200, f65: 100, f66: 100, f69: 10, f70: 150, f71: 100, f72: 50, f75: 5,
  f76: 100, f77: 150, f78: -50, f81: -5, f82: 80, f83: 120, f84: -40, f87: -4, f62: 150, f184: 15,
}
const ulist = (row: object) => JSON.stringify({ rc: 0, data: { total: 1, diff: [row] } })

beforeAll(() => setClock(Date.parse('2026-11-20T14:00:00+08:00')))
afterAll(() => {
  setClock(null)
  clearFaults()
})

describe('parseDayFlow', () => {
  it('reads the real layout: nets and ratios per class, close and change', () => {
    expect(parseDayFlow(DAYKLINE, MOUTAI)).toEqual([
      {
        date: '2025-01-02',
        main: { net: -53215000, ratio: -1.64 },
        classes: { super: { net: -41215000, ratio: -1.27 }, large: { net: -12000000, ratio: -0.37 }, medium: { net: 31870000, ratio: 0.98 }, small: { net: 21345000, ratio: 0.66 } },
        close: 1520,
        changePct: 0.76,
      },
    ])
  })

  it('rejects another stock, a short row, rows out of order and a main net that is not super + large', () => {
    const bad = (f: (d: any) => void) => {
      const j = JSON.parse(DAYKLINE)
      f(j.data)
      return () => parseDayFlow(JSON.stringify(j), MOUTAI)
    }
    expect(bad((d) => (d.code = '000001'))).toThrow(ChannelError)
    expect(bad((d) => (d.klines = ['2025-01-02,1,2,3']))).toThrow(/columns/)
    expect(bad((d) => d.klines.push(d.klines[0]))).toThrow(/order/)
    expect(bad((d) => (d.klines = [d.klines[0].replace('-53215000.0', '-50000000.0')]))).toThrow(/super-large/)
    expect(parseDayFlow(JSON.stringify({ rc: 0, data: null }), MOUTAI)).toEqual([])
    expect(parseDayFlow(JSON.stringify({ rc: 100, data: null }), MOUTAI)).toEqual([])
  })

  it('reports a refusal (rc 102, data null) as a failure, not as no sessions', () => {
    expect(() => parseDayFlow(JSON.stringify({ rc: 102, data: null }), MOUTAI)).toThrow(expect.objectContaining({ kind: 'malformed' }))
  })
})

// Real answers (test/fixtures/push2/SOURCE.md).
describe('money flow on captured answers', () => {
  // The daykline capture kept its rows only: they go back into the envelope fields1=f1,f2,f3,f7 asks for.
  const dayAnswer = JSON.stringify({ rc: 0, data: { code: '000034', market: 0, name: '神州数码', klines: JSON.parse(capturedDayRows) } })
  const SZ000034 = parseSymbol('sz000034')

  it('reads the fifteen daykline columns of a real answer (the request we send: lmt=0, fields2 f51..f65)', () => {
    const rows = parseDayFlow(dayAnswer, SZ000034)
    expect(rows.map((r) => r.date)).toEqual(['2020-06-03', '2020-06-04'])
    expect(rows[0]).toEqual({
      date: '2020-06-03',
      main: { net: -57_970_261, ratio: -15.21 },
      classes: { super: { net: -28_076_597, ratio: -7.37 }, large: { net: -29_893_664, ratio: -7.85 }, medium: { net: 17_864_264, ratio: 4.69 }, small: { net: 40_105_996, ratio: 10.53 } },
      close: 23.99,
      changePct: -1.4,
    })
  })

  it('adds up as the real host computes it: the four nets cancel out, every ratio is net over one amount, the change follows the closes', () => {
    const rows = parseDayFlow(dayAnswer, SZ000034)
    for (const r of rows) {
      const c = r.classes
      expect(Math.abs(c.super.net + c.large.net + c.medium.net + c.small.net)).toBeLessThanOrEqual(1)
      const amount = r.main.net / (r.main.ratio / 100)
      for (const k of ['super', 'large', 'medium', 'small'] as const) expect(Math.abs(c[k].net / amount) * 100).toBeCloseTo(Math.abs(c[k].ratio), 1)
    }
    expect(((rows[1].close - rows[0].close) / rows[0].close) * 100).toBeCloseTo(rows[1].changePct, 2)
  })

  it('reads a second real daykline answer (600519, June 2026, its envelope kept): the same arithmetic holds', () => {
    const rows = parseDayFlow(capturedMoutaiDays, MOUTAI)
    expect(rows.map((r) => [r.date, r.main.net, r.close, r.changePct])).toEqual([
      ['2026-06-10', 268_756_032, 1275.88, 1.58],
      ['2026-06-11', -95_013_600, 1279, 0.24],
    ])
    for (const r of rows) {
      const c = r.classes
      expect(Math.abs(c.super.net + c.large.net + c.medium.net + c.small.net)).toBeLessThanOrEqual(20)
      const amount = r.main.net / (r.main.ratio / 100)
      expect((c.medium.net / amount) * 100).toBeCloseTo(c.medium.ratio, 1)
    }
    // "-0.00": a ratio that rounds to zero keeps its sign on the wire, and reads as zero.
    expect(rows[1].classes.small.ratio).toBe(-0)
  })

  it('ranks a real fid=f62 row by its main net, and leaves the "-" rows of stocks without a trade unranked', () => {
    const traded = parseRankPage(capturedRank000006)
    expect(traded.total).toBe(5909)
    expect(traded.rows.map((r) => r.net)).toEqual([-878_110])
    const row = JSON.parse(capturedRank000006).data.diff[0]
    expect(row.f62).toBe(row.f66 + row.f72)
    expect(row.f62 + row.f78 + row.f84).toBe(0)
    const halted = parseRankPage(capturedRankSuspended)
    expect(halted.rows.map((r) => r.net)).toEqual([null, null])
  })

  it('reads a real fltt=2 ulist answer as plain numbers: f184 is f62 over f6 in percent', () => {
    const rows = JSON.parse(capturedUlistFlow).data.diff as Array<Record<string, number>>
    expect(rows).toHaveLength(3)
    for (const r of rows) expect((r.f62 / r.f6) * 100).toBeCloseTo(r.f184, 1)
    // A field not asked is not sent: that request had no f13, so no row names its market, and a
    // row we cannot place is refused rather than taken by its code alone.
    expect(rows.every((r) => !('f13' in r))).toBe(true)
    expect(() => parseTodayFlow(capturedUlistFlow, MOUTAI)).toThrow(/does not hold 1\.600519/)
  })
})

describe('parseTodayFlow', () => {
  it('reads inflow, outflow, net and ratio per class and checks they add up to the amount', () => {
    const f = parseTodayFlow(ulist(flowRow), MOUTAI)!
    expect(f.date).toBe('2026-11-20')
    expect(f.classes.super).toEqual({ inflow: 200, outflow: 100, net: 100, ratio: 10 })
    expect(f.main.net).toBe(150)
    expect(() => parseTodayFlow(ulist({ ...flowRow, f6: 2000 }), MOUTAI)).toThrow(/add up/)
    expect(() => parseTodayFlow(ulist({ ...flowRow, f66: 90 }), MOUTAI)).toThrow(/inflow/)
    expect(() => parseTodayFlow(ulist({ ...flowRow, f12: '000001', f13: 0 }), MOUTAI)).toThrow(/does not hold/)
    expect(parseTodayFlow(ulist({ ...flowRow, f2: '-', f6: '-' }), MOUTAI)).toBeNull()
  })

  it('refuses what is not an A-share stock before calling out', () => {
    expect(() => todayFlowUrl(parseSymbol('hk00700'))).toThrow(/A-share/)
    expect(() => dayFlowUrl(parseSymbol('sh000001'))).toThrow(/A-share/)
  })
})

describe('against the emulator', () => {
  it('today\'s classes add up to the day\'s amount, and the daily rows end with today', async () => {
    const today = (await fetchTodayFlow(ctx, MOUTAI))!
    const sum = Object.values(today.classes).reduce((s, c) => s + c.inflow + c.outflow, 0)
    expect(Math.abs(sum - today.amount)).toBeLessThan(0.05)
    const days = await fetchDayFlow(ctx, MOUTAI)
    expect(days.length).toBeGreaterThan(60)
    expect(days.at(-1)!.date).toBe(today.date)
    expect(days.at(-1)!.main.net).toBeCloseTo(today.main.net, 0)
  })

  it('moves to the mirror host when the first one fails', async () => {
    setFault('eastmoney', { kind: 'http', count: 1 })
    expect((await fetchDayFlow(ctx, MOUTAI)).length).toBeGreaterThan(0)
  })

  it('refuses a rank page that is not sorted', () => {
    const page = (nets: Array<number | string>) => JSON.stringify({ rc: 0, data: { total: 2, diff: nets.map((n, i) => ({ f12: `60000${i}`, f13: 1, f62: n })) } })
    expect(parseRankPage(page([5, 3])).rows).toHaveLength(2)
    expect(() => parseRankPage(page([3, 5]))).toThrow(/sorted/)
    expect(() => parseRankPage(page(['-', 5]))).toThrow(/sorted/)
  })

  it('walks every page of the market sorted by main net inflow into ranks', async () => {
    const pages: Record<string, Array<number | string>> = { 1: [9, 7, 5], 2: [5, 1, '-'] }
    const answer = (nets: Array<number | string>, page: number) =>
      JSON.stringify({ rc: 0, data: { total: 6, diff: nets.map((n, i) => ({ f12: `60000${page * 3 + i}`, f13: 1, f62: n })) } })
    const { ctx: fake, calls } = fakeContext((url) => {
      const pn = new URL(url).searchParams.get('pn')!
      return { body: answer(pages[pn], Number(pn)) }
    })
    const r = await fetchFlowRanks(fake)
    expect(calls).toHaveLength(2)
    expect(r.ranked).toBe(5)
    expect(r.ranks.get('1.600003')).toBe(1)
    expect(r.ranks.get('1.600007')).toBe(5)
    expect(r.ranks.has('1.600008')).toBe(false)
    pages[2] = [6, 1, '-'] // rises across the page boundary
    await expect(fetchFlowRanks(fake)).rejects.toThrow(/sorted/)
  })
})
