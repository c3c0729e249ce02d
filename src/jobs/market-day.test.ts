import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { market } from '../emulator/market/index'
import { createServices } from '../services/index'
import { barCount, readHistory, writeHistory } from '../store/history'
import { dayRowsPrefix, historyKey, marketKlineKey } from '../store/keys'
import { TechnicalsTables } from '../store/technicals'
import { StateShards } from '../store/state-shards'
import { readFactorTable } from '../store/factor-table'
import { STOCK_DAY_COLUMNS, stepStateThrough, stockDays } from '../domain/stock-days'
import { encodeState } from '../domain/indicators/step'
import { readMarketDay } from '../store/market-kline'
import { readCursor, readManifest, readRunRecord } from '../store/meta'
import { buildHistory } from './build-history'
import { marketDayJob, type MarketDayCursor, type MarketDayOptions } from './market-day'
import { marketSource } from './testing'
import { bookValuePerShare, epsTtm } from '../emulator/market/fundamentals'
import { technicalsKey } from '../store/keys'

const bj = (date: string, hhmm: string) => Date.parse(`${date}T${hhmm}:00+08:00`)
const stocks = market.instruments().filter((i) => i.kind === 'stock')
const halted = (date: string) => stocks.find((i) => market.live(i, bj(date, '16:00')).state === 'suspended' && i.listDate < '2026-01-01')!

// A small universe: ordinary stocks, Moutai (an ex-date on 2026-07-22), a stock suspended on
// 2026-11-19, and a listing of late October 2026.
const CODES = [
  ...stocks.slice(0, 24).map((i) => i.code),
  'sh600519',
  halted('2026-11-19').code,
  stocks.find((i) => i.listDate > '2026-10-01' && i.listDate < '2026-11-18')!.code,
].filter((c, i, all) => all.indexOf(c) === i)

let clock = 0
// The job's source is given: the services' fetch is never used.
const services = createServices({ fetch: () => Promise.reject(new Error('no upstream here')), now: () => clock })
const source = marketSource(market, CODES, () => clock)

/** Runs the job the way the cron does, at Beijing `date hhmm`. */
async function run(date: string, hhmm: string, opts: MarketDayOptions = {}) {
  clock = bj(date, hhmm)
  const ctx = createExecutionContext()
  const ctl = createScheduledController({ scheduledTime: clock, cron: '30 7 * * 1-5' })
  const entry = await marketDayJob(ctl, env, ctx, services, { source, ...opts })
  await waitOnExecutionContext(ctx)
  return entry as any
}

/** Every history as the model says it should be through `date`. */
async function expectHistoriesThrough(date: string) {
  const now = bj(date, '16:00')
  for (const code of CODES) {
    const inst = market.byCode(code)!
    const h = await readHistory(env.STORE, code)
    const bars = market.dailyBars(inst, '2016-08-08', date, now)
    if (!bars.length) {
      expect(h, code).toBeUndefined()
      continue
    }
    expect(h, code).toBeDefined()
    expect(barCount(h!), code).toBe(bars.length)
    expect(h!.last, code).toBe(bars.at(-1)!.date)
    expect(h!.c, code).toEqual(bars.map((b) => b.close))
    expect(h!.vol, code).toEqual(bars.map((b) => b.volume))
    // Each day's turnover rate: the built part from the raw bars, the appended days from the snapshot.
    expect(h!.tr, code).toEqual(bars.map((b) => b.turnover))
    expect(h!.act.map((a) => a[0]), code).toEqual(market.actions(inst, now).map((a) => a.exDate))
  }
}

/**
 * The day's technicals and hs factor tables: one row per traded stock, each the point-in-time row
 * of its stored history, the close the one that traded; the staging gone.
 */
async function expectDayTables(date: string, traded: string[]) {
  const day = (await new TechnicalsTables().day(env.STORE, date))!
  expect(day.codes().sort()).toEqual([...traded].sort())
  for (const code of traded) {
    const h = (await readHistory(env.STORE, code))!
    const want = stockDays(h, h.t.length - 1, h.t.length - 1)[0]
    expect(want.date).toBe(date)
    const row = day.row(code)!
    expect(STOCK_DAY_COLUMNS.map((c) => row.get(c)), code).toEqual(want.values)
    expect(row.get('closePrice'), code).toBe(h.c.at(-1))
  }
  // … and beside it each traded stock's indicator state after the day (the next session steps from it)
  const states = (await new StateShards().read(env.STORE, date, traded))!
  expect(states.size).toBe(traded.length)
  for (const code of traded) {
    // stepped from the day before's state where it fits, computed over the history where not: the same either way
    const h = (await readHistory(env.STORE, code))!
    expect(encodeState(states.state(code)!), code).toBe(encodeState(stepStateThrough(h, h.t.length - 1)))
  }
  const factors = (await readFactorTable(env.STORE, 'hs'))!
  expect(factors.date).toBe(date)
  expect(factors.codes).toEqual([...traded].sort())
  expect(factors.value('ClosePrice', factors.codes.indexOf('sh600519'))).toBe(day.row('sh600519')!.get('closePrice'))
  expectFundamentals(factors, date)
  expect((await env.STORE.list({ prefix: dayRowsPrefix(date) })).objects).toHaveLength(0)
}

/**
 * The fundamentals and size factors agree with the emulator's own model as of `date` (its EPS
 * TTM from the reports published by then, its share counts, its day bar's turnover, its book
 * value per share of the latest report for BPS, PB and ROETTM).
 */
function expectFundamentals(factors: NonNullable<Awaited<ReturnType<typeof readFactorTable>>>, date: string) {
  const now = bj(date, '16:00')
  let priced = 0
  factors.codes.forEach((code, i) => {
    const inst = market.byCode(code)!
    const close = factors.value('ClosePrice', i)!
    const eps = epsTtm(market, inst, date, now)
    const bar = market.dailyBars(inst, date, date, now)[0]
    expect(factors.value('TotalShares', i), code).toBe(inst.totalShares)
    expect(factors.value('FloatShares', i), code).toBe(inst.floatShares)
    expect(factors.value('TotalMV', i), code).toBeCloseTo((close * inst.totalShares!) / 1e8, 3)
    expect(factors.value('TurnoverRate', i), code).toBeCloseTo(bar.turnover!, 3)
    expect(factors.value('EPS_TTM', i), code).toBeCloseTo(eps!, 4)
    expect(factors.value('PE_TTM', i), code).toBe(eps! > 0 ? Math.round((close / eps!) * 1e4) / 1e4 : null)
    // Book value: the latest report's BPS (the 业绩报表's, src/jobs/eastmoney-source.ts), as the quotes' PB has it.
    const bps = bookValuePerShare(market, inst, date, now)!
    expect(factors.value('BPS', i), code).toBeCloseTo(bps, 4)
    expect(factors.value('PB', i), code).toBe(bps > 0 ? Math.round((close / bps) * 1e4) / 1e4 : null)
    expect(factors.value('ROETTM', i), code).toBeCloseTo((eps! / bps) * 100, 3)
    if (eps! > 0) priced++
  })
  expect(priced).toBeGreaterThan(factors.codes.length / 2)
}

/** Etags of the day blob and every history: equal etags = nothing rewritten. */
async function etags(date: string) {
  const keys = [marketKlineKey(date), ...CODES.map(historyKey)]
  return Promise.all(keys.map(async (k) => (await env.STORE.head(k))?.etag ?? null))
}

describe('market-day job', () => {
  it('builds missing histories whole and merges the day’s corporate actions (ex-date 2026-07-22)', async () => {
    const e = await run('2026-07-22', '15:40')
    expect(e.status).toBe('done')
    expect(e.blob).toMatchObject({ status: 'written' })
    expect(e.histories).toMatchObject({ done: true, built: expect.any(Number) })
    const h = (await readHistory(env.STORE, 'sh600519'))!
    expect(h.last).toBe('2026-07-22')
    expect(h.act.at(-1)).toEqual(['2026-07-22', 53.75, 0])
    const cached = await (await env.STORE.get('meta/actions/2026-07-22.json'))!.json()
    expect(cached).toContainEqual({ code: 'sh600519', exDate: '2026-07-22', cash: 53.75, bonus: 0 })
  })

  it('skips before the day settles and on non-trading days, writing nothing but the run record', async () => {
    const before = await run('2026-11-18', '15:10')
    expect(before).toMatchObject({ status: 'skipped', reason: expect.stringContaining('15:30') })
    expect(await env.STORE.head(marketKlineKey('2026-11-18'))).toBeNull()
    const sat = await run('2026-11-21', '16:00')
    expect(sat).toMatchObject({ status: 'skipped', reason: '2026-11-21 is not a trading day' })
    expect((await readRunRecord(env.STORE, 'market-day', '2026-11-21'))!.runs).toHaveLength(1)
  })

  it('writes the day blob and appends the day to every history, catching up the gap since July', async () => {
    const e = await run('2026-11-18', '15:45')
    expect(e).toMatchObject({ status: 'done', blob: { status: 'written' }, histories: { done: true } })
    expect(e.histories['caught-up']).toBeGreaterThan(20)
    await expectHistoriesThrough('2026-11-18')
  })

  it('writes exactly the snapshot’s traded stocks, unadjusted, and a halted stock is absent', async () => {
    const e = await run('2026-11-19', '16:00')
    expect(e.status).toBe('done')
    const rows = (await readMarketDay(env.STORE, '2026-11-19'))!
    const traded = CODES.filter((c) => market.dailyBars(market.byCode(c)!, '2026-11-19', '2026-11-19', clock).length)
    expect(rows.map((r) => r.code)).toEqual([...traded].sort())
    expect(rows.map((r) => r.code)).not.toContain(halted('2026-11-19').code)
    const moutai = market.dailyBars(market.byCode('sh600519')!, '2026-11-19', '2026-11-19', clock)[0]
    expect(rows.find((r) => r.code === 'sh600519')).toEqual({
      code: 'sh600519', time: '2026-11-19', open: moutai.open.toFixed(2), high: moutai.high.toFixed(2), low: moutai.low.toFixed(2),
      close: moutai.close.toFixed(2), volume: String(moutai.volume), amount: moutai.amount.toFixed(2),
    })
    expect((await env.STORE.head(marketKlineKey('2026-11-19')))!.customMetadata!.rows).toBe(String(rows.length))
    expect(await readManifest(env.STORE)).toMatchObject({ latestMarketKline: '2026-11-19', historyThrough: '2026-11-19', universe: CODES.length })
    await expectHistoriesThrough('2026-11-19')
    await expectDayTables('2026-11-19', traded)
  })

  it('is idempotent: a second run rewrites nothing and calls no upstream', async () => {
    const before = await etags('2026-11-19')
    const calls = { ...source.calls }
    const e = await run('2026-11-19', '16:10')
    expect(e).toMatchObject({ status: 'done', blob: { status: 'exists' }, histories: { noop: true } })
    expect(await etags('2026-11-19')).toEqual(before)
    expect(source.calls).toEqual(calls)
    expect((await readRunRecord(env.STORE, 'market-day', '2026-11-19'))!.runs.map((r) => r.status)).toEqual(['done', 'done'])
  })

  it('is resumable: a small chunk per run continues where the last run stopped', async () => {
    const seen: number[] = []
    for (let i = 0; i < 10; i++) {
      const e = await run('2026-11-20', `15:${30 + i}`, { chunk: 7, concurrency: 3 })
      seen.push(e.histories.next)
      if (e.status === 'done') break
      expect(e.status).toBe('partial')
    }
    const cursor = (await readCursor<MarketDayCursor>(env.STORE, 'market-day'))!
    expect(cursor).toMatchObject({ date: '2026-11-20', done: true })
    // Each run took the next 7 stocks; the last one took the rest.
    expect(seen).toEqual(Array.from({ length: Math.ceil(cursor.total / 7) }, (_, i) => Math.min(cursor.total, 7 * (i + 1))))
    await expectHistoriesThrough('2026-11-20')
    // Rows staged over many runs make one table with every traded stock once.
    await expectDayTables('2026-11-20', CODES.filter((c) => market.dailyBars(market.byCode(c)!, '2026-11-20', '2026-11-20', clock).length))
  })
})

describe('market-day job under failures', () => {
  it('never writes a partial day: a failed snapshot leaves no blob, the next run writes it', async () => {
    source.failNext('snapshot', 1)
    const e = await run('2026-11-23', '15:35')
    expect(e).toMatchObject({ status: 'error', error: expect.stringContaining('injected snapshot failure') })
    expect(await env.STORE.head(marketKlineKey('2026-11-23'))).toBeNull()
    // Half of the histories lost: they are rebuilt from the upstream (and one rebuild fails once).
    for (const code of CODES.slice(5, 15)) await env.STORE.delete(historyKey(code))
    source.failNext('rawDaily', 1)
    const again = await run('2026-11-23', '15:45', { chunk: 100 })
    expect(again).toMatchObject({ status: 'partial', blob: { status: 'written' }, histories: { done: false, next: 5, error: expect.stringContaining('injected rawDaily failure') } })
    const last = await run('2026-11-23', '15:55')
    expect(last).toMatchObject({ status: 'done', blob: { status: 'exists' }, histories: { done: true } })
    expect(last.histories.built).toBe(10)
    await expectHistoriesThrough('2026-11-23')
  })

  it('refuses a snapshot much smaller than the known universe', async () => {
    const small = marketSource(market, CODES.slice(0, 10), () => clock)
    const e = await run('2026-11-24', '15:35', { source: small })
    expect(e).toMatchObject({ status: 'error', error: expect.stringContaining('snapshot incomplete') })
    expect(await env.STORE.head(marketKlineKey('2026-11-24'))).toBeNull()
  })

  it('gives up on a stock after three failed runs and finishes the rest', async () => {
    const victim = CODES[3]
    await env.STORE.delete(historyKey(victim))
    for (let i = 0; i < 3; i++) {
      source.failNext('rawDaily', 1)
      const e = await run('2026-11-24', `16:0${i}`)
      expect(e.status).toBe('partial')
    }
    const e = await run('2026-11-24', '16:10')
    expect(e).toMatchObject({ status: 'done', histories: { gaveUp: [victim] } })
    expect(await readHistory(env.STORE, victim)).toBeUndefined()
  })

  it('writes no table while the statements fail, and both tables on the next run', async () => {
    source.failNext('statements', 1)
    const e = await run('2026-11-25', '15:35')
    expect(e).toMatchObject({ status: 'error', error: expect.stringContaining('injected statements failure') })
    expect(await env.STORE.head(technicalsKey('2026-11-25'))).toBeNull()
    const again = await run('2026-11-25', '15:45')
    expect(again).toMatchObject({ status: 'done', tables: { status: 'written', requests: expect.any(Number) } })
    await expectDayTables('2026-11-25', CODES.filter((c) => market.dailyBars(market.byCode(c)!, '2026-11-25', '2026-11-25', clock).length))
  })

  it('leaves step (c) to the next run when this one has not the subrequests left for it', async () => {
    const first = await run('2026-11-26', '15:35', { budget: 370 })
    expect(first).toMatchObject({ status: 'partial', histories: { done: true } })
    expect(first.tables).toBeUndefined()
    expect(await env.STORE.head(technicalsKey('2026-11-26'))).toBeNull()
    const next = await run('2026-11-26', '15:45', { budget: 370 })
    expect(next).toMatchObject({ status: 'done', histories: { noop: true }, tables: { status: 'written' } })
    await expectDayTables('2026-11-26', CODES.filter((c) => market.dailyBars(market.byCode(c)!, '2026-11-26', '2026-11-26', clock).length))
  })
})

it('builds a stock’s whole history for the store', async () => {
  clock = bj('2026-11-20', '16:00')
  const h = (await buildHistory(source, 'sh600519', '2026-11-20'))!
  await writeHistory(env.STORE, h)
  expect(h.t[0]).toBe(20160808)
  expect(h.last).toBe('2026-11-20')
})
