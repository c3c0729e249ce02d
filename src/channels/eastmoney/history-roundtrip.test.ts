/**
 * The history channel functions against the emulator's real market: what the store would fetch
 * after the close equals what the market model says happened.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseSymbol } from '../../domain/symbols'
import { createEmulatorFetch, requestCounts, resetEmulator, setClock } from '../../emulator/control'
import { market } from '../../emulator/market'
import { round } from '../../emulator/wire/format'
import { WHOLE_MARKET_WALK } from '../page-walk'
import type { ChannelContext } from '../types'
import { fetchCorporateActions } from './dividends'
import { fetchMarketSnapshot } from './market-list'
import { fetchRawDaily } from './raw-daily'

// Friday 2026-11-20, 16:00 Beijing: the day's bars are final.
const NOW = Date.parse('2026-11-20T16:00:00+08:00')
const TODAY = '2026-11-20'
const ctx: ChannelContext = { fetch: createEmulatorFetch(market), timeoutMs: 10_000 }
/** The emulator renders the whole market in this process: a walk budget that a busy machine cannot overrun. */
const UNHURRIED = { ...WHOLE_MARKET_WALK, budgetMs: 120_000 }
const stocks = market.instruments().filter((i) => i.kind === 'stock')

beforeAll(() => {
  resetEmulator()
  setClock(NOW)
})
afterAll(() => resetEmulator())

/** The wire rounds volume to lots and amount to cents. */
const asWire = (volume: number, amount: number) => ({ volume: Math.round(volume / 100) * 100, amount: round(amount, 2) })

describe('fetchMarketSnapshot over the emulator', () => {
  it('has every listed stock with the day bar the model has, in 56 pages', async () => {
    const rows = await fetchMarketSnapshot(ctx, UNHURRIED)
    const listed = stocks.filter((s) => s.listDate <= TODAY)
    expect(rows).toHaveLength(listed.length)
    expect(requestCounts().eastmoney).toBe(Math.ceil(listed.length / 100))
    const byCode = new Map(rows.map((r) => [r.code, r]))
    for (const inst of listed) {
      const row = byCode.get(inst.code)!
      expect(row, inst.code).toBeDefined()
      const [bar] = market.dailyBars(inst, TODAY, TODAY, NOW)
      if (!bar) {
        expect(row.halted, inst.code).toBe(true)
        continue
      }
      const { totalShares, floatShares, listDate, ...day } = row
      expect(day, inst.code).toEqual({
        code: inst.code, name: inst.name, date: TODAY, halted: false, traded: true,
        open: bar.open, high: bar.high, low: bar.low, close: bar.close, preClose: bar.preClose, ...asWire(bar.volume, bar.amount),
        // The turnover rate the history store keeps for the day: the same two decimals as the K-line's f61.
        turnover: bar.turnover === null ? null : round(bar.turnover, 2),
      })
      // Share counts come back from the caps the list prints (cap ÷ price), to the caps' rounding.
      expect(listDate, inst.code).toBe(inst.listDate)
      expect(Math.abs(totalShares! / inst.totalShares! - 1), inst.code).toBeLessThan(1e-3)
      expect(Math.abs(floatShares! / inst.floatShares! - 1), inst.code).toBeLessThan(1e-3)
    }
  }, 60_000) // the whole market's first list at an instant: seconds of the model's CPU

  it('sends a stock suspended that day as halted, dated the session the list shows, with its last close', async () => {
    // Wednesday of the same week: suspensions fall on Tuesday to Thursday.
    const wed = Date.parse('2026-11-18T16:00:00+08:00')
    setClock(wed)
    try {
      const rows = await fetchMarketSnapshot(ctx, UNHURRIED)
      const halted = rows.filter((r) => r.halted)
      expect(halted.length).toBeGreaterThan(0)
      for (const r of halted.slice(0, 20)) {
        const inst = market.byCode(r.code)!
        expect(market.dailyBars(inst, '2026-11-18', '2026-11-18', wed), r.code).toEqual([])
        const last = market.dailyBars(inst, '2026-11-01', '2026-11-17', wed).at(-1)!
        expect(r, r.code).toMatchObject({ open: 0, high: 0, low: 0, close: 0, volume: 0, amount: 0, preClose: last.close, date: '2026-11-18', traded: false })
      }
    } finally {
      setClock(NOW)
    }
  })
})

describe('fetchCorporateActions over the emulator', () => {
  const moutai = market.byCode('sh600519')!

  it('gives a stock\'s actions as the model has them', async () => {
    const want = market.actions(moutai, NOW).map((a) => ({ code: 'sh600519', ...a }))
    expect(want.length).toBeGreaterThan(0)
    expect(await fetchCorporateActions(ctx, { code: 'sh600519' })).toEqual(want)
  })

  it('gives every stock\'s actions on an ex-date', async () => {
    const exDate = market.actions(moutai, NOW).at(-1)!.exDate
    const want = stocks.flatMap((s) => market.actions(s, NOW).filter((a) => a.exDate === exDate).map((a) => ({ code: s.code, ...a })))
    want.sort((a, b) => (a.code < b.code ? -1 : 1))
    expect(await fetchCorporateActions(ctx, { exDate })).toEqual(want)
  })
})

describe('fetchRawDaily over the emulator', () => {
  it('gives the model\'s raw bars since 2016-08-08', async () => {
    const inst = market.byCode('sh600519')!
    const bars = await fetchRawDaily(ctx, parseSymbol('sh600519'), '2016-08-08', TODAY)
    const want = market.dailyBars(inst, '2016-08-08', TODAY, NOW)
    expect(bars.map((b) => b.date)).toEqual(want.map((b) => b.date))
    bars.forEach((b, i) => {
      const w = want[i]
      expect(b, w.date).toEqual({ date: w.date, open: w.open, high: w.high, low: w.low, close: w.close, ...asWire(w.volume, w.amount), turnover: round(w.turnover!, 2) })
    })
  })
})
