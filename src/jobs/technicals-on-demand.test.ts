import { env } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { market } from '../emulator/market/index'
import { tradingDaysBetween } from '../domain/trading-calendar'
import { writeHistory } from '../store/history'
import type { History } from '../store/shapes'
import { technicalsOnDemandKey, historyKey } from '../store/keys'
import { writeUniverse } from '../store/meta'
import { deletePrefix, getJson } from '../store/r2-json'
import { technicalsDay, technicalsOf } from '../store/technicals'
import { buildHistory } from './build-history'
import { collectRows, stagedDayRows } from './day-tables'
import { technicalsOnDemand } from './technicals-on-demand'
import { marketSource } from './testing'

// In the dividend season: rows on and around ex-dates, where a day's bars are adjusted again.
const NOW = Date.parse('2026-07-10T16:30:00+08:00')
const THROUGH = '2026-07-10'
const FROM = '2026-06-01'
const stocks = market.instruments().filter((i) => i.kind === 'stock' && i.listDate < '2024-01-01')
const withEx = stocks.filter((i) => market.actions(i, NOW).some((a) => a.exDate > FROM && a.exDate <= THROUGH)).slice(0, 4)
/** A stock listed after FROM: no bar on the early days. */
const young = market.instruments().find((i) => i.kind === 'stock' && i.listDate > '2026-06-05' && i.listDate < '2026-07-01')!
const CODES = [...withEx.map((i) => i.code), 'sh600519', young.code]
const NAMES = Object.fromEntries(CODES.map((c) => [c, market.byCode(c)!.name]))

let hs: History[] = []
const keep: Array<Promise<unknown>> = []
const kept = async () => void (await Promise.all(keep.splice(0)))

beforeAll(async () => {
  await deletePrefix(env.STORE, 'technicals/')
  const source = marketSource(market, CODES, () => NOW)
  hs = (await Promise.all(CODES.map((c) => buildHistory(source, c, THROUGH)))).filter((h): h is History => !!h)
  for (const h of hs) await writeHistory(env.STORE, h)
  await writeUniverse(env.STORE, { date: THROUGH, codes: [...CODES].sort(), names: NAMES })
}, 120_000)

describe('technicalsOnDemand', () => {
  it("gives every day the items the job's table of that day gives, byte for byte, ex-dates included", async () => {
    expect(withEx.length).toBeGreaterThanOrEqual(2)
    // What the backfill stages for the range, assembled per day as the job assembles a table.
    const staged = hs.flatMap((h) => stagedDayRows(h, FROM, THROUGH))
    let compared = 0
    for (const date of tradingDaysBetween(FROM, THROUGH)) {
      const table = technicalsDay(technicalsOf(date, collectRows(staged.filter((l) => l.startsWith(date)).map((l) => l.slice(11))).values(), NAMES))
      const { day, errors } = await technicalsOnDemand(env.STORE, date, CODES, (p) => keep.push(p))
      expect(errors.size).toBe(0)
      expect(day.codes().sort(), date).toEqual(table.codes().sort())
      for (const code of CODES) {
        expect(day.itemBytes(code), `${code} ${date}`).toEqual(table.itemBytes(code))
        if (table.itemBytes(code)) compared++
      }
    }
    expect(compared).toBeGreaterThan(100)
    await kept()
  }, 120_000)

  it('keeps what it computed in R2, with the stocks that had no bar that day, and reads it back', async () => {
    const date = '2026-06-03'
    await env.STORE.delete(technicalsOnDemandKey(date))
    const first = await technicalsOnDemand(env.STORE, date, CODES, (p) => keep.push(p))
    await kept()
    expect(first.day.itemBytes(young.code)).toBeUndefined()
    const stored = (await getJson<{ rows: Record<string, unknown>; absent: string[] }>(env.STORE, technicalsOnDemandKey(date)))!
    expect(Object.keys(stored.rows).sort()).toEqual(CODES.filter((c) => c !== young.code).sort())
    expect(stored.absent).toEqual([young.code])
    // Served from what was kept: the histories are not read again.
    const saved = await env.STORE.get(historyKey('sh600519'))
    await env.STORE.delete(historyKey('sh600519'))
    const again = await technicalsOnDemand(env.STORE, date, CODES, (p) => keep.push(p))
    expect(keep).toHaveLength(0) // nothing new to write
    expect(again.day.itemBytes('sh600519')).toEqual(first.day.itemBytes('sh600519'))
    await env.STORE.put(historyKey('sh600519'), await saved!.text())
  })

  it('stops starting stocks when its time is up, says to ask again, and the next call finishes them', async () => {
    const date = '2026-06-10'
    await env.STORE.delete(technicalsOnDemandKey(date))
    const cut = await technicalsOnDemand(env.STORE, date, CODES, (p) => keep.push(p), -1)
    expect([...cut.errors.keys()].sort()).toEqual([...CODES].sort())
    expect(cut.errors.get('sh600519')).toMatch(/ran out of time .* ask again/)
    expect(keep).toHaveLength(0)
    const next = await technicalsOnDemand(env.STORE, date, CODES, (p) => keep.push(p))
    await kept()
    expect(next.errors.size).toBe(0)
    expect(next.day.itemBytes('sh600519')).toBeDefined()
  })

  it('has no row, and no error, for a stock without a stored history', async () => {
    const { day, errors } = await technicalsOnDemand(env.STORE, '2026-06-03', ['sh600519', 'sz300999'], (p) => keep.push(p))
    await kept()
    expect(day.itemBytes('sz300999')).toBeUndefined()
    expect(errors.size).toBe(0)
  })
})
