import { env } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { TECHNICAL_COLUMNS } from '../src/domain/indicators/columns'
import { market } from '../src/emulator/market/index'
import { buildHistory } from '../src/jobs/build-history'
import { stagedDayRows, collectRows, writeDayTables } from '../src/jobs/day-tables'
import { channelSource } from '../src/jobs/eastmoney-source'
import { writeHistory, type History } from '../src/store/history'
import { deletePrefix } from '../src/store/r2-json'
import { makeKey, resetWorld } from './helpers'
import { services, storeJson } from './store-app'

// After the close of Friday 2026-11-20: the day's tables are built, HK and US have closed too.
const CLOCK = '2026-11-20T16:30:00+08:00'
const NOW = Date.parse(CLOCK)
const BJ = market.instruments().find((i) => i.kind === 'stock' && i.code.startsWith('bj') && i.listDate < '2025-01-01')!
const STOCKS = ['sh600519', 'sz000001', BJ.code]
const COLUMNS = TECHNICAL_COLUMNS.map((c) => c[0])

let pro = ''
const batch = (qs: string, k = pro) => storeJson(`/v1/technical-batch?${qs}`, { key: k })

/** The tables of `date` as the after-close job writes them: each stock's staged row, assembled. */
async function buildTables(histories: History[], date: string) {
  const lines = histories.flatMap((h) => stagedDayRows(h, date, date)).map((l) => l.slice(11))
  await writeDayTables(env.STORE, date, collectRows(lines).values(), Object.fromEntries(histories.map((h) => [h.code, market.byCode(h.code)!.name])), NOW)
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
  await buildTables(histories, '2026-11-19')
  await buildTables(histories, '2026-11-20')
})

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

  it('answers ok:false when the day has no table', async () => {
    const { body } = await batch('codes=sh600519&date=2026-11-18')
    expect(body).toMatchObject({ ok: false, code: 'NO_DATA', date: '2026-11-18' })
    expect(body.data[0].error).toMatch(/technicals of 2026-11-18 are not built/)
  })

  it.each([
    ['codes=sh600519&date=2026-11-23', 'date', /future/],
    ['codes=sh600519&date=2015-01-05', 'date', /2016-08-08 or later/],
    ['codes=sh600519&date=2026-02-30', 'date', /not a real calendar date/],
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
    expect((await storeJson('/v1/technical-batch?codes=sh600519')).status).toBe(401)
  })
})
