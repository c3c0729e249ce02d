import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { stepStateThrough, TECHNICAL_VALUE_COLUMNS, stockDays } from '../domain/stock-days'
import { decodeState, encodeState, nextRow } from '../domain/indicators/step'
import { market } from '../emulator/market/index'
import { numDate } from '../store/history'
import type { History } from '../store/shapes'
import { StateShards } from '../store/state-shards'
import { buildHistory } from './build-history'
import { collectRows, collectStates, stagedDayRows, stateAfter, writeDayTables } from './day-tables'
import { marketSource } from './testing'

// In the dividend season: many ex-dates among the checked sessions.
const NOW = Date.parse('2026-07-10T16:30:00+08:00')
const THROUGH = '2026-07-10'
/** Sessions checked back from THROUGH. */
const DAYS = 20

const stocks = market.instruments().filter((i) => i.kind === 'stock' && i.listDate < '2024-01-01')
/** Stocks with a cash dividend or bonus going ex within the checked sessions, and a few without. */
const withEx = stocks.filter((i) => market.actions(i, NOW).some((a) => a.exDate > '2026-06-11' && a.exDate <= THROUGH)).slice(0, 8)
const CODES = [...withEx.map((i) => i.code), 'sh600519', 'sz000001', stocks.find((i) => i.code.startsWith('bj'))!.code, stocks[37].code]

async function histories(): Promise<History[]> {
  const source = marketSource(market, CODES, () => NOW)
  return (await Promise.all(CODES.map((c) => buildHistory(source, c, THROUGH)))).filter((h): h is History => !!h)
}

/** The state after day `i` of `h`, through its text as the store keeps it. */
const storedState = (h: History, i: number) => decodeState(JSON.parse(encodeState(stepStateThrough(h, i))))!

describe('the indicator states the day tables carry', () => {
  it('step, with the next session\'s raw bar, to exactly that session\'s table row; an ex-date is seen by the quote\'s previous close', async () => {
    expect(withEx.length).toBeGreaterThanOrEqual(3)
    let stepped = 0
    let afterEx = 0
    let exDays = 0
    for (const h of await histories()) {
      const exDates = new Set(h.act.map(([d]) => d))
      for (let i = h.t.length - DAYS; i < h.t.length; i++) {
        const date = numDate(h.t[i])
        const state = storedState(h, i - 1)
        const bar = { date, open: h.o[i], high: h.h[i], low: h.l[i], close: h.c[i], volume: h.vol[i] }
        const row = nextRow(state, bar, { code: h.code, name: null, priceDecimals: 2 })
        const want = stockDays(h, i, i)[0].values
        const raw = market.dailyBars(market.byCode(h.code)!, date, date, NOW)[0]
        // The job steps yesterday's stored state the same way (or, on an ex-date, starts over): the same state
        if (i % 4 === 0 || exDates.has(date)) expect(encodeState(stateAfter(h, i, state)), `${h.code} ${date}`).toBe(encodeState(stepStateThrough(h, i)))
        // … and it does step the given state (a bent one shows through), except on an ex-date
        const bent = { ...state, obv: state.obv + 1 }
        expect(stateAfter(h, i, bent).obv - stateAfter(h, i, state).obv, `${h.code} ${date}`).toBe(exDates.has(date) ? 0 : 1)
        if (exDates.has(date)) {
          // The exchange's reference price is the ex-rights one: not the state's last close.
          exDays++
          expect(raw.preClose, `${h.code} ${date}`).not.toBe(state.c.at(-1))
          continue
        }
        expect(raw.preClose, `${h.code} ${date}`).toBe(state.c.at(-1))
        TECHNICAL_VALUE_COLUMNS.forEach((name, k) => expect(row[name], `${h.code} ${date} ${name}`).toBe(want[k]))
        stepped++
        if (exDates.has(numDate(h.t[i - 1]))) afterEx++
      }
    }
    expect(stepped).toBeGreaterThan(150)
    expect(exDays).toBeGreaterThanOrEqual(3)
    expect(afterEx).toBeGreaterThanOrEqual(3) // the state of an ex-date itself is on the re-based bars
  }, 120_000)

  it('are written beside the day table, one per stock, and read back by code', async () => {
    const hs = await histories()
    const lines = hs.flatMap((h) => stagedDayRows(h, '2026-07-09', THROUGH)).filter((l) => l.startsWith(THROUGH)).map((l) => l.slice(11))
    const written = await writeDayTables(env.STORE, THROUGH, collectRows(lines).values(), {}, NOW, undefined, collectStates(lines))
    expect(written).toMatchObject({ rows: hs.length, states: hs.length })
    const day = (await new StateShards().read(env.STORE, THROUGH, ['sh600519', 'sh999999'], NOW))!
    expect(day.size).toBe(hs.length)
    expect(day.state('sh600519')).toMatchObject({ date: THROUGH, i: hs.find((h) => h.code === 'sh600519')!.t.length })
    expect(day.state('sh999999')).toBeUndefined()
    // Only the newest staged day carries states
    expect(hs.flatMap((h) => stagedDayRows(h, '2026-07-09', THROUGH)).filter((l) => l.startsWith('2026-11-19\t#'))).toEqual([])
  })
})
