import { env } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import type { BackfillState } from '../src/store/backfill-record'
import { BACKFILL_KEY } from '../src/store/keys'
import { getJson as readJson, putJson } from '../src/store/r2-json'
import { makeKey, resetWorld } from './helpers'
import { post, storeJson } from './store-app'

// Saturday: 2026-11-20 is the latest trading day; the build writes the day blobs of that week.
const CLOCK = '2026-11-21T10:00:00+08:00'
const FROM = '2026-11-16'
const TO = '2026-11-20'
const CHUNK = 10

let key = ''
let codes: string[] = []
const get = (path: string, k = key) => storeJson(path, { key: k })

beforeAll(async () => {
  await resetWorld(CLOCK)
  key = await makeKey('unlimited')
  // The real first step of the build (as `npm start` on an empty store does): the plan in meta/.
  const start = await post('/__jobs/backfill/start', { from: FROM, to: TO, chunkSize: CHUNK })
  expect(start.status).toBe(200)
  codes = start.body.state.codes
  expect(codes).toContain('sh600519')
}, 60_000)

describe('while the history is being built', () => {
  it('/v1/kline-full answers ok:false BUILDING with how far the build is, not counted', async () => {
    const k = await makeKey('standard')
    const { status, body } = await get('/v1/kline-full?code=sz000001', k)
    expect(status).toBe(200)
    expect(body).toMatchObject({ ok: false, code: 'BUILDING', data: [] })
    expect(body.progress).toEqual({
      phase: 'histories',
      percent: 0,
      stocks_done: 0,
      stocks_total: codes.length,
      months_done: 0,
      months_total: 1,
      from: FROM,
      to: TO,
      started_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+08:00$/),
    })
    expect(body.error).toMatch(/^the daily history of sz000001 is being built \(0% done: histories 0 of \d+ stocks/)
    const usage = (await get('/v1/usage', k)).body
    expect((usage.data ?? usage).endpoints['kline-full']).toBeUndefined()
  })

  it('/v1/market-kline answers BUILDING for a day the build writes, NO_DATA for one it does not', async () => {
    const building = await get(`/v1/market-kline?date=2026-11-19`)
    expect(building.body).toMatchObject({ ok: false, code: 'BUILDING', date: '2026-11-19', data: [], progress: { phase: 'histories', from: FROM, to: TO } })
    expect(building.body.error).toMatch(/^the market-kline of 2026-11-19 is being built/)
    const outside = await get(`/v1/market-kline?date=2026-11-13`)
    expect(outside.body).toMatchObject({ ok: false, code: 'NO_DATA', date: '2026-11-13' })
  })

  it('/v1/screen and /v1/technical-batch answer BUILDING with the progress, not "run the backfill", not counted', async () => {
    const k = await makeKey('pro')
    const screen = await get('/v1/screen?preset=LowPE', k)
    expect(screen.status).toBe(200)
    expect(screen.body).toMatchObject({ ok: false, code: 'BUILDING', market: 'hs', matched: 0, progress: { phase: 'histories', from: FROM, to: TO } })
    expect(screen.body.error).toMatch(/^the hs factor table is being built \(0% done: histories 0 of \d+ stocks/)
    const batch = await get('/v1/technical-batch?codes=sh600519,sz000001&date=2026-11-19', k)
    expect(batch.status).toBe(200)
    expect(batch.body).toMatchObject({ ok: false, code: 'BUILDING', returned: 0, progress: { phase: 'histories' } })
    expect(batch.body.error).toMatch(/^the technicals table of 2026-11-19 is being built \(0% done/)
    // Each item says so too, with or without a date.
    expect(batch.body.data.map((x: any) => x.error)).toEqual([batch.body.error, batch.body.error])
    const blank = await get('/v1/technical-batch?codes=sh600519', k)
    expect(blank.body).toMatchObject({ ok: false, code: 'BUILDING' })
    expect(blank.body.data[0].error).toMatch(/^the technicals table is being built \(0% done/)
    expect(JSON.stringify(blank.body)).not.toMatch(/run the backfill/)
    const usage = (await get('/v1/usage', k)).body
    const endpoints = (usage.data ?? usage).endpoints
    expect(endpoints.screen).toBeUndefined()
    expect(endpoints['technical-batch']).toBeUndefined()
  })

  it('a stock the build does not cover is NO_DATA, as before', async () => {
    // A well-formed Shanghai stock code that is not in the emulated A-share list.
    let n = 600000
    while (codes.includes(`sh${n}`)) n++
    const gone = `sh${n}`
    const { body } = await get(`/v1/kline-full?code=${gone}`)
    expect(body).toMatchObject({ ok: false, code: 'NO_DATA' })
  })

  it('serves a stock as soon as its chunk is built, and counts the chunks in the progress', async () => {
    const index = Math.floor(codes.indexOf('sh600519') / CHUNK)
    expect((await post('/__jobs/backfill/chunk', { index })).status).toBe(200)
    const served = await get('/v1/kline-full?code=sh600519')
    expect(served.body).toMatchObject({ ok: true, as_of: TO })
    const other = codes.find((c, i) => Math.floor(i / CHUNK) !== index)!
    const waiting = await get(`/v1/kline-full?code=${other}`)
    expect(waiting.body).toMatchObject({ ok: false, code: 'BUILDING', progress: { stocks_done: CHUNK } })
    // Steps: the chunks, the month of day blobs, the days of technicals and factor tables.
    const state = (await readJson<BackfillState>(env.STORE, BACKFILL_KEY))!
    const steps = Math.ceil(codes.length / CHUNK) + 1 + (state.tableDays?.length ?? 0)
    expect(waiting.body.progress.percent).toBe(Math.floor((1 / steps) * 100))
  })

  it('reports the day-blob phase from the record in meta/', async () => {
    const state = (await readJson<BackfillState>(env.STORE, BACKFILL_KEY))!
    await putJson(env.STORE, BACKFILL_KEY, { ...state, phase: 'finish' })
    try {
      const { body } = await get('/v1/market-kline?date=2026-11-20')
      expect(body).toMatchObject({ ok: false, code: 'BUILDING', progress: { phase: 'day_blobs', stocks_done: codes.length, months_done: 0 } })
      const steps = state.chunks + state.months.length + (state.tableDays?.length ?? 0)
      expect(body.progress.percent).toBe(Math.floor((state.chunks / steps) * 100))
      expect(body.error).toMatch(/day blobs, 0 of 1 months/)
    } finally {
      await putJson(env.STORE, BACKFILL_KEY, state)
    }
  })

  it('once the build is done, a missing day or history is plain NO_DATA again', async () => {
    const state = (await readJson<BackfillState>(env.STORE, BACKFILL_KEY))!
    await putJson(env.STORE, BACKFILL_KEY, { ...state, phase: 'done' })
    try {
      expect((await get('/v1/market-kline?date=2026-11-19')).body).toMatchObject({ ok: false, code: 'NO_DATA' })
      const other = codes.find((c) => c !== 'sh600519' && Math.floor(codes.indexOf(c) / CHUNK) !== Math.floor(codes.indexOf('sh600519') / CHUNK))!
      expect((await get(`/v1/kline-full?code=${other}`)).body).toMatchObject({ ok: false, code: 'NO_DATA' })
    } finally {
      await putJson(env.STORE, BACKFILL_KEY, state)
    }
  })
})
