import { env } from 'cloudflare:test'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { TECHNICAL_COLUMNS } from '../src/domain/indicators/columns'
import { market } from '../src/emulator/market/index'
import { buildHistory } from '../src/jobs/build-history'
import { stagedDayRows, collectRows, writeDayTables } from '../src/jobs/day-tables'
import { channelSource } from '../src/jobs/eastmoney-source'
import { writeHistory } from '../src/store/history'
import type { History } from '../src/store/shapes'
import { technicalsKey, technicalsOnDemandKey } from '../src/store/keys'
import { updateManifest, writeUniverse } from '../src/store/meta'
import { deletePrefix } from '../src/store/r2-json'
import { makeKey, resetWorld } from './helpers'
import { services, storeCall, storeJson } from './store-app'

// After the close of Friday 2026-11-20: the day's tables are built, HK and US have closed too.
const CLOCK = '2026-11-20T16:30:00+08:00'
const NOW = Date.parse(CLOCK)
const BJ = market.instruments().find((i) => i.kind === 'stock' && i.code.startsWith('bj') && i.listDate < '2025-01-01')!
const STOCKS = ['sh600519', 'sz000001', BJ.code]
const COLUMNS = TECHNICAL_COLUMNS.map((c) => c[0])
const NAMES = Object.fromEntries(STOCKS.map((c) => [c, market.byCode(c)!.name]))

let pro = ''
const batch = (qs: string, k = pro) => storeJson(`/v1/technical-batch?${qs}`, { key: k })

/** The tables of `date` as the after-close job writes them: each stock's staged row, assembled. */
async function buildTables(histories: History[], date: string) {
  const lines = histories.flatMap((h) => stagedDayRows(h, date, date)).map((l) => l.slice(11))
  await writeDayTables(env.STORE, date, collectRows(lines).values(), NAMES, NOW)
  services.store.forgetLatestTechnicals() // as the jobs do after writing a table
}

beforeAll(async () => {
  await resetWorld(CLOCK)
  pro = await makeKey('pro')
  await deletePrefix(env.STORE, 'technicals/')
  await deletePrefix(env.STORE, 'meta/technicals-latest')
  const source = channelSource(services)
  const histories: History[] = []
  for (const code of STOCKS) {
    const h = (await buildHistory(source, code, '2026-11-20'))!
    await writeHistory(env.STORE, h)
    histories.push(h)
  }
  // What the backfill leaves beside the histories: the universe's names and how far the histories reach.
  await writeUniverse(env.STORE, { date: '2026-11-20', codes: [...STOCKS].sort(), names: NAMES })
  await updateManifest(env.STORE, { historyThrough: '2026-11-20' }, NOW)
  await buildTables(histories, '2026-11-19')
  await buildTables(histories, '2026-11-20')
})

/** The answer's items as the bytes sent (everything between `"data":` and the envelope's next field). */
async function itemsText(qs: string): Promise<string> {
  const text = await (await storeCall(`/v1/technical-batch?${qs}`, { key: pro })).text()
  return text.slice(text.indexOf('"data":['), text.indexOf('],"date":') + 1)
}

describe('GET /v1/technical-batch', () => {
  it('answers every requested symbol in order, A-share, Beijing, HK, US and an index mixed, with the reason for one that fails', async () => {
    const codes = ['sh600519', 'hk00700', 'bad!', BJ.code, 'usAAPL', 'sh000001', 'sz000001']
    const { status, body } = await batch(`codes=${codes.join(',')}`)
    expect(status).toBe(200)
    expect(body).toMatchObject({ ok: true, endpoint: 'technical-batch', tier: 'pro', date: '2026-11-20', requested: 7, returned: 6, failed: 1, source: 'multi' })
    expect(body.data.map((x: any) => x.code)).toEqual(codes)
    expect(body.data.map((x: any) => x.ok)).toEqual([true, true, false, true, true, true, true])
    expect(body.data[2].error).toMatch(/bad!/)
    for (const item of body.data.filter((x: any) => x.ok)) expect(Object.keys(item.data)).toEqual(COLUMNS)
    // Each at its latest session: the US one closed on its 2026-11-19, before Beijing's Friday.
    expect(body.data.map((x: any) => x.data?.date)).toEqual(['2026-11-20', '2026-11-20', undefined, '2026-11-20', '2026-11-19', '2026-11-20', '2026-11-20'])
    expect(body.data[0].data).toMatchObject({ code: 'sh600519', name: '贵州茅台' })
  })

  it('gives a table row equal to /v1/technical after the close, and the close that traded', async () => {
    const { body } = await batch('codes=sh600519,sz000001')
    for (const item of body.data) {
      const single = (await storeJson(`/v1/technical?code=${item.code}`, { key: pro })).body.data[0]
      expect(item.data, item.code).toEqual({ ...single, name: item.data.name })
      const bar = market.dailyBars(market.byCode(item.code)!, '2026-11-20', '2026-11-20', NOW)[0]
      expect(item.data.closePrice).toBe(bar.close)
    }
  })

  it('falls back from a non-trading day to the session before, and says so', async () => {
    const { body } = await batch('codes=sh000001&date=2026-11-15')
    expect(body.date).toBe('2026-11-13')
    expect(body.data[0].data.date).toBe('2026-11-13')
    const friday = await batch('codes=sh600519&date=2026-11-19')
    expect(friday.body.data[0].data.date).toBe('2026-11-19')
    expect(friday.body.data[0].data.closePrice).toBe(market.dailyBars(market.byCode('sh600519')!, '2026-11-19', '2026-11-19', NOW)[0].close)
  })

  it('refuses HK and US rows for an older session (they would carry later adjustments), but serves indexes', async () => {
    const { body } = await batch('codes=hk00700,sh000001&date=2026-11-19')
    expect(body.data[0]).toMatchObject({ ok: false, error: expect.stringMatching(/latest session only/) })
    expect(body.data[1]).toMatchObject({ ok: true, data: { date: '2026-11-19' } })
  })

  it('bills one unit per symbol returned; a call where every item fails is ok:false and free', async () => {
    const k = await makeKey('pro')
    expect((await batch('codes=sh600519,sz000001,nope', k)).body.returned).toBe(2)
    const none = await batch('codes=nope,sh999998', k)
    expect(none.body).toMatchObject({ ok: false, code: 'NO_DATA', returned: 0, failed: 2 })
    await new Promise((r) => setTimeout(r, 50)) // settlement runs in waitUntil
    const usage = (await storeJson('/v1/usage', { key: k })).body.data
    expect(usage.endpoints['technical-batch']).toEqual({ units: 2, calls: 1 })
  })

  it("echoes a symbol with replacement patterns ($', $&) as plain text", async () => {
    const { body } = await batch(`codes=${encodeURIComponent("sh600519,$',$&")}`)
    expect(body.data.map((x: { code: string }) => x.code)).toEqual(['sh600519', "$'", '$&'])
    expect(body).toMatchObject({ requested: 3, returned: 1, failed: 2 })
  })

  it("serves a day without a table from the stored histories: the same bytes the day's table gives", async () => {
    const qs = `codes=sh600519,SZ000001,${BJ.code},sh000001,nope&date=2026-11-19`
    const fromTable = await itemsText(qs)
    expect(JSON.parse(`{${fromTable}}`).data.map((x: any) => x.ok)).toEqual([true, true, true, true, false])
    await env.STORE.delete(technicalsKey('2026-11-19'))
    // Past the minute an isolate trusts a table it has read without asking R2 again (src/store/memo-read.ts).
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now() + 61_000)
    try {
      expect(await itemsText(qs)).toBe(fromTable)
      expect(await env.STORE.head(technicalsOnDemandKey('2026-11-19'))).not.toBeNull()
      expect(await itemsText(qs)).toBe(fromTable) // again, from the rows kept
    } finally {
      vi.useRealTimers()
      await buildTables(await Promise.all(STOCKS.map(async (c) => (await buildHistory(channelSource(services), c, '2026-11-20'))!)), '2026-11-19')
    }
  })

  it('serves any older session of the history, point in time: the close that traded that day', async () => {
    const { body } = await batch(`codes=sh600519,sz000001,${BJ.code}&date=2025-06-25`)
    expect(body).toMatchObject({ ok: true, date: '2025-06-25', source: 'store' })
    for (const item of body.data) {
      const bar = market.dailyBars(market.byCode(item.code)!, '2025-06-25', '2025-06-25', NOW).find((b) => b.date === '2025-06-25')
      if (!bar) {
        // The emulator's sz000001 was suspended that day (no bar in its history): an error item, as in a table.
        expect(item).toMatchObject({ ok: false, error: `${item.code}: not traded on 2025-06-25 (suspended, not listed, or no such stock)` })
        continue
      }
      expect(Object.keys(item.data)).toEqual(COLUMNS)
      expect(item.data).toMatchObject({ code: item.code, name: NAMES[item.code], date: '2025-06-25' })
      expect(item.data.closePrice, item.code).toBe(bar.close)
      expect(item.data.ma_MA_250).toEqual(expect.any(Number))
    }
    expect(body.returned).toBeGreaterThanOrEqual(2)
    // A Saturday is the Friday before; the first session of the history has no averages yet.
    const saturday = await batch('codes=sh600519&date=2025-06-28')
    expect(saturday.body).toMatchObject({ date: '2025-06-27', data: [{ ok: true, data: { date: '2025-06-27' } }] })
    const first = await batch('codes=sh600519,sh000001&date=2016-08-08')
    expect(first.body.data[0].data).toMatchObject({ date: '2016-08-08', ma_MA_5: null })
    // An index is computed from its channel's last 1,212 day bars: older days say so, not "not traded".
    expect(first.body.data[1]).toMatchObject({ ok: false, error: expect.stringMatching(/^sh000001: no row before 20\d\d-\d\d-\d\d \(its channel serves its last 1212 day bars/) })
  })

  it('gives a stock that did not trade on the day an error item, and keeps the date asked for', async () => {
    // sz300998: no stored history (not listed, or no such stock)
    const { body } = await batch('codes=sh600519,sz300998&date=2025-06-25')
    expect(body.data[1]).toMatchObject({ ok: false, error: 'sz300998: not traded on 2025-06-25 (suspended, not listed, or no such stock)' })
    expect(body).toMatchObject({ date: '2025-06-25', returned: 1, failed: 1 })
  })

  it('says the top-level date is a day the items have: the newest of them with a blank date', async () => {
    const us = await batch('codes=usAAPL')
    expect(us.body.data[0].data.date).toBe('2026-11-19')
    expect(us.body.date).toBe('2026-11-19')
    const none = await batch('codes=nope')
    expect(none.body).toMatchObject({ ok: false, code: 'NO_DATA' })
    expect(none.body.date).toBeUndefined()
  })

  it('answers ok:false for a session the stored histories do not reach yet', async () => {
    await resetWorld('2026-11-23T10:30:00+08:00') // Monday, during the session: no table, no bars stored
    try {
      const { body } = await batch('codes=sh600519&date=2026-11-23')
      expect(body).toMatchObject({ ok: false, code: 'NO_DATA', date: '2026-11-23' })
      expect(body.data[0].error).toMatch(/technicals of 2026-11-23 are not built yet .*histories reach 2026-11-20/)
    } finally {
      await resetWorld(CLOCK)
    }
  })

  it.each([
    ['codes=sh600519&date=2026-11-23', 'date', /future/],
    ['codes=sh600519&date=2015-01-05', 'date', /2016-08-08 or later/],
    ['codes=sh600519&date=2026-02-30', 'date', /not a real calendar date/],
    ['codes=sh600519&date=2016-08-05', 'date', /2016-08-08 or later/],
    ['codes=' + Array.from({ length: 501 }, (_, i) => `sz${String(i + 1).padStart(6, '0')}`).join(','), 'codes', /at most 500 symbols a call for tier pro; 501/],
    ['codes=,,', 'codes', /at least one/],
  ])('answers 422 naming the field (case %#)', async (qs, field, msg) => {
    const { status, body } = await batch(qs)
    expect(status).toBe(422)
    expect(body.detail[0].loc).toEqual(['query', field])
    expect(body.detail[0].msg).toMatch(msg)
  })

  it('takes 1,000 symbols on unlimited, and needs tier pro', async () => {
    const codes = Array.from({ length: 1000 }, (_, i) => (i % 2 ? 'sh600519' : 'sz000001')).join(',')
    const { body } = await batch(`codes=${codes}`, await makeKey('unlimited'))
    expect(body).toMatchObject({ ok: true, requested: 1000, returned: 1000 })
    const trial = await batch('codes=sh600519', await makeKey('standard'))
    expect(trial.status).toBe(403)
    // A date no tier may ask for is the 422, not the 403 asking for pro.
    expect((await batch('codes=sh600519&date=2030-01-01', await makeKey('standard'))).status).toBe(422)
    expect((await storeJson('/v1/technical-batch?codes=sh600519')).status).toBe(401)
  })
})
