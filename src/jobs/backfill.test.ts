import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { market } from '../emulator/market/index'
import { ValidationError } from '../http/validation'
import { createServices } from '../services/index'
import { readHistory } from '../store/history'
import { marketKlineKey } from '../store/keys'
import { marketRow, readMarketDay } from '../store/market-kline'
import { readManifest, readRunRecord, readUniverse } from '../store/meta'
import { TechnicalsTables } from '../store/technicals'
import { StateShards } from '../store/state-shards'
import { readFactorTable } from '../store/factor-table'
import { STOCK_DAY_COLUMNS, stockDays } from '../domain/stock-days'
import { tradingDaysBetween } from '../domain/trading-calendar'
import { backfillChunk, BackfillConflict, backfillStatus, finishBackfill, startBackfill } from './backfill'
import { marketSource } from './testing'
import { bookValuePerShare, epsTtm, financialReport } from '../emulator/market/fundamentals'

const NOW = Date.parse('2026-11-21T10:00:00+08:00')
const stocks = market.instruments().filter((i) => i.kind === 'stock')
// Ordinary stocks plus listings of September and late October 2026 (inside the range).
const CODES = [...stocks.slice(100, 130), ...stocks.filter((i) => i.listDate >= '2026-09-01').slice(0, 5)].map((i) => i.code)
const source = marketSource(market, CODES, () => NOW)
// The source is given: the services' fetch is never used.
const deps = { env, services: createServices({ fetch: () => Promise.reject(new Error('no upstream here')), now: () => NOW }), source }
const RANGE = { from: '2026-10-28', to: '2026-11-20' }

describe('backfill steps', () => {
  it('refuses a bad range with a 422 body and finish before start with a conflict', async () => {
    await expect(startBackfill(deps, { from: '2016-01-04' })).rejects.toBeInstanceOf(ValidationError)
    await expect(finishBackfill(deps)).rejects.toBeInstanceOf(BackfillConflict)
    await expect(backfillChunk(deps, 0)).rejects.toBeInstanceOf(BackfillConflict)
    expect(await backfillStatus(deps)).toBeUndefined()
  })

  it('plans the range, the universe and the chunks', async () => {
    const s = await startBackfill(deps, { ...RANGE, chunkSize: 10 })
    expect(s.state).toMatchObject({ ...RANGE, through: '2026-11-20', months: ['2026-10', '2026-11'], chunkSize: 10, chunks: 4, phase: 'chunks' })
    expect(s.state.codes).toEqual([...CODES].sort())
    expect(s.pending).toEqual([0, 1, 2, 3])
    expect((await readUniverse(env.STORE))!.codes).toEqual([...CODES].sort())
  })

  it('resumes: chunks done survive a new start with the same range; a failed chunk is simply rerun', async () => {
    expect(await backfillChunk(deps, 0)).toMatchObject({ index: 0, stocks: 10, histories: 10 })
    expect(await backfillChunk(deps, 2)).toMatchObject({ index: 2, stocks: 10 })
    const again = await startBackfill(deps, RANGE)
    expect(again.pending).toEqual([1, 3])
    source.failNext('rawDaily', 1)
    await expect(backfillChunk(deps, 1)).rejects.toThrow(/injected/)
    expect((await backfillStatus(deps))!.pending).toEqual([1, 3])
    await expect(finishBackfill(deps)).rejects.toThrow(/2 of 4 chunks are not done/)
    expect(await backfillChunk(deps, 1)).toMatchObject({ index: 1, histories: 10 })
    expect(await backfillChunk(deps, 0)).toMatchObject({ index: 0, stocks: 10, histories: 10, already: true })
    await expect(backfillChunk(deps, 4)).rejects.toBeInstanceOf(ValidationError)
    expect(await backfillChunk(deps, 3)).toMatchObject({ index: 3, stocks: 5 })
  })

  it('finishes month by month and writes each day from the complete set of chunks', async () => {
    const oct = await finishBackfill(deps)
    expect(oct).toMatchObject({ phase: 'finish', month: '2026-10', dates: 3, remainingMonths: 1 })
    const nov = await finishBackfill(deps)
    expect(nov).toMatchObject({ phase: 'finish', month: '2026-11', dates: 15, remainingMonths: 0 })
    // Then one call per day of technicals and factor tables (the range has 18 trading days, under TABLE_DAYS).
    const days: string[] = []
    for (let left = 18; left > 0; left--) {
      const r = await finishBackfill(deps)
      expect(r).toMatchObject({ phase: 'finish', remainingTableDays: left - 1, tables: { rows: expect.any(Number) } })
      days.push(r.tableDay!)
    }
    expect(days).toEqual(tradingDaysBetween('2026-10-28', '2026-11-20'))
    const done = await finishBackfill(deps)
    expect(done).toMatchObject({ phase: 'done', written: { dates: 18, emptyDates: [] } })
    expect(await finishBackfill(deps)).toMatchObject({ phase: 'done' })
    expect((await env.STORE.list({ prefix: 'staging/' })).objects).toEqual([])
    expect(await readManifest(env.STORE)).toMatchObject({ latestMarketKline: '2026-11-20', firstMarketKline: '2026-10-28', historyThrough: '2026-11-20' })
    expect((await readRunRecord(env.STORE, 'backfill', '2026-11-21'))!.runs[0]).toMatchObject({ status: 'done', dates: 18, stocks: CODES.length })
  })

  it('wrote day blobs equal to the model’s bars of every stock that traded', async () => {
    let total = 0
    for (const date of ['2026-10-28', '2026-10-30', '2026-11-02', '2026-11-19', '2026-11-20']) {
      const want = [...CODES]
        .sort()
        .flatMap((c) => market.dailyBars(market.byCode(c)!, date, date, NOW).map((b) => marketRow(c, b)))
      const rows = await readMarketDay(env.STORE, date)
      expect(rows, date).toEqual(want)
      expect((await env.STORE.head(marketKlineKey(date)))!.customMetadata).toEqual({ rows: String(want.length), date })
      total += want.length
    }
    expect(total).toBeGreaterThan(150)
    // A listing of 2026-10-30 appears from its first day on.
    const late = CODES.find((c) => market.byCode(c)!.listDate === '2026-10-30')
    if (late) {
      expect((await readMarketDay(env.STORE, '2026-10-29'))!.some((r) => r.code === late)).toBe(false)
      expect((await readMarketDay(env.STORE, '2026-10-30'))!.some((r) => r.code === late)).toBe(true)
    }
    expect(await env.STORE.head(marketKlineKey('2026-10-27'))).toBeNull()
  })

  it('wrote each day\'s technicals point in time: the row of a date is computed from the bars up to it', async () => {
    for (const date of ['2026-10-28', '2026-11-20']) {
      const day = (await new TechnicalsTables().day(env.STORE, date))!
      const traded = CODES.filter((c) => market.dailyBars(market.byCode(c)!, date, date, NOW).length)
      expect(day.codes().sort(), date).toEqual([...traded].sort())
      for (const code of traded.slice(0, 5)) {
        const h = (await readHistory(env.STORE, code))!
        const i = h.t.indexOf(Number(date.replaceAll('-', '')))
        const want = stockDays(h, i, i)[0]
        expect(STOCK_DAY_COLUMNS.map((c) => day.row(code)!.get(c)), `${code} ${date}`).toEqual(want.values)
        expect(day.row(code)!.get('closePrice')).toBe(h.c[i])
      }
    }
    expect((await readFactorTable(env.STORE, 'hs'))!.date).toBe('2026-11-20')
    // The indicator states are written for the newest table day only: live rows step from it
    expect((await new StateShards().read(env.STORE, '2026-11-20', CODES))?.state(CODES[0])).toMatchObject({ date: '2026-11-20' })
    expect(await new StateShards().read(env.STORE, '2026-10-28', CODES)).toBeUndefined()
  })

  it('wrote each day\'s fundamentals point in time: a Q3 report (and its BPS) counts from its notice date on', async () => {
    // Stocks whose Q3 2026 report came out inside the range (Q3 notices run 10-12 to 10-31).
    const late = CODES.filter((c) => {
      const r = financialReport(market, market.byCode(c)!, '2026-09-30', NOW)
      return r && r.noticeDate > '2026-10-28' && r.noticeDate <= '2026-11-20'
    })
    expect(late.length).toBeGreaterThan(0)
    for (const date of ['2026-10-28', '2026-10-30', '2026-11-20']) {
      const t = (await readFactorTable(env.STORE, 'hs', date))!
      for (const code of t.codes) {
        const eps = epsTtm(market, market.byCode(code)!, date, NOW)
        expect(t.value('EPS_TTM', t.codes.indexOf(code)), `${code} ${date}`).toBeCloseTo(eps!, 4)
        // BPS too: the latest report's as of the day (the 业绩报表 row with the statements), as the quotes' PB has it.
        expect(t.value('BPS', t.codes.indexOf(code)), `${code} ${date}`).toBeCloseTo(bookValuePerShare(market, market.byCode(code)!, date, NOW)!, 4)
      }
    }
    const [before, after] = [await readFactorTable(env.STORE, 'hs', '2026-10-28'), await readFactorTable(env.STORE, 'hs', '2026-11-20')]
    for (const code of late) {
      const inst = market.byCode(code)!
      expect(epsTtm(market, inst, '2026-10-28', NOW)).not.toBe(epsTtm(market, inst, '2026-11-20', NOW))
      expect(before!.value('EPS_TTM', before!.codes.indexOf(code))).not.toBe(after!.value('EPS_TTM', after!.codes.indexOf(code)))
      expect(before!.value('BPS', before!.codes.indexOf(code))).not.toBe(after!.value('BPS', after!.codes.indexOf(code)))
    }
  })

  it('wrote whole histories since 2016-08-08 (or the listing) with their actions', async () => {
    for (const code of CODES) {
      const inst = market.byCode(code)!
      const bars = market.dailyBars(inst, '2016-08-08', '2026-11-20', NOW)
      const h = (await readHistory(env.STORE, code))!
      expect(h.t.length, code).toBe(bars.length)
      expect(h.o, code).toEqual(bars.map((b) => b.open))
      expect(h.amt, code).toEqual(bars.map((b) => b.amount))
      expect(h.tr, code).toEqual(bars.map((b) => b.turnover))
      expect(h.act, code).toEqual(market.actions(inst, NOW).map((a) => [a.exDate, a.cash, a.bonus]))
    }
  })

  it('rerun with the same range and nothing settled since: returns the finished run, builds nothing', async () => {
    const calls = { ...source.calls }
    const s = await startBackfill(deps, RANGE)
    expect(s.state).toMatchObject({ ...RANGE, phase: 'done' })
    expect(s.pending).toEqual([])
    expect(source.calls).toEqual(calls)
  })

  it('starts a new run for another range', async () => {
    const s = await startBackfill(deps, { from: '2026-11-16', to: '2026-11-20' })
    expect(s.state).toMatchObject({ from: '2026-11-16', phase: 'chunks', chunks: 1, months: ['2026-11'] })
  })
})
