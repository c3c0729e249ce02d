import { createExecutionContext, createScheduledController, env } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { factorNames } from '../src/data/factors'
import { HK_STOCKS, US_STOCKS } from '../src/emulator/market/catalog'
import { JOBS } from '../src/jobs/index'
import { readFactorTable } from '../src/store/factor-table'
import { deletePrefix } from '../src/store/r2-json'
import { fault, getJson, makeKey, resetWorld } from './helpers'
import { post, services } from './store-app'

// Friday 2026-11-20 17:00 Beijing: HK's session of the 20th is over (16:10 close); in New York it
// is 04:00 on the 20th, so the last US session is the 19th's.
const AFTER_HK_CLOSE = '2026-11-20T17:00:00+08:00'

let key = ''
const screen = (qs: string) => getJson('/v1/screen' + qs, { headers: { authorization: `Bearer ${key}` } })
const build = (market: 'hk' | 'us', live = false) => post('/__jobs/foreign-factors', { market, live })

beforeAll(async () => {
  await resetWorld(AFTER_HK_CLOSE)
  key = await makeKey('trial')
  await deletePrefix(env.STORE, 'factors/')
  await deletePrefix(env.STORE, 'meta/factors-')
})

describe('HK and US factor tables', () => {
  it('the job builds each from its whole-market list, dated by the session the list carries, with exactly the catalogue factors', async () => {
    const hk = await build('hk')
    expect(hk.body).toMatchObject({ status: 'done', market: 'hk', date: '2026-11-20', rows: Object.keys(HK_STOCKS).length, final: true })
    const us = await build('us')
    expect(us.body).toMatchObject({ status: 'done', market: 'us', date: '2026-11-19', rows: Object.keys(US_STOCKS).length, final: true })
    for (const market of ['hk', 'us'] as const) {
      const t = await readFactorTable(env.STORE, market)
      expect(factorNames(market).every((f) => t!.has(f))).toBe(true)
      expect(factorNames(market).length).toBe(12)
    }
    // A second run of the same session changes nothing.
    expect((await build('hk')).body).toMatchObject({ status: 'skipped', reason: expect.stringContaining('is built') })
    expect(await post('/__jobs/foreign-factors', { market: 'hs' })).toMatchObject({ status: 422, body: { detail: [{ loc: ['body', 'market'] }] } })
  })

  it('HKLowPE returns HK rows at a low positive P/E, in the table of the HK session date', async () => {
    const { body } = await screen('?preset=HKLowPE')
    expect(body).toMatchObject({ ok: true, market: 'hk', date: '2026-11-20', orderby: 'PE_TTM', desc: false })
    expect(body.returned).toBeGreaterThan(0)
    for (const r of body.structured) {
      expect(r.code).toMatch(/^hk\d{5}$/)
      expect(Number(r.PE_TTM)).toBeGreaterThan(0)
      expect(Number(r.PE_TTM)).toBeLessThan(10)
    }
    // The banks are stated at P/E 4.6 and 5.2 at their end level (catalog.ts); they stay cheap.
    expect(body.structured.map((r: any) => r.code)).toEqual(expect.arrayContaining(['hk00939', 'hk01398']))
  })

  it('USLargeCap returns the US stocks by total market cap (100 million USD), largest first, dated by the US session', async () => {
    const { body } = await screen('?preset=USLargeCap')
    expect(body).toMatchObject({ ok: true, market: 'us', date: '2026-11-19', orderby: 'TotalMV', desc: true })
    expect(body.returned).toBe(Object.keys(US_STOCKS).length)
    const caps = body.structured.map((r: any) => Number(r.TotalMV))
    expect(caps).toEqual([...caps].sort((a, b) => b - a))
    for (const r of body.structured) expect(r.code).toMatch(/^us[A-Z]+$/)
    // TotalMV = close × shares / 1e8, the shares the emulator states.
    const aapl = body.structured.find((r: any) => r.code === 'usAAPL')
    expect(Number(aapl.TotalMV)).toBeCloseTo((Number(aapl.ClosePrice) * US_STOCKS.AAPL.shares) / 1e8, 0)
  })

  it.each([
    ['hk00700', 'hk'],
    ['usAAPL', 'us'],
  ] as const)('a screen’s ClosePrice and ChangePCT for %s equal /v1/quote’s last bar at the same clock', async (code, market) => {
    const { body } = await screen(`?market=${market}&expr=${encodeURIComponent('ClosePrice > 0')}&limit=500`)
    const row = body.structured.find((r: any) => r.code === code)
    const quote = await getJson(`/v1/quote?code=${code}&count=2`)
    const [last, prev] = quote.body.data // newest first
    expect(last.date).toBe(body.date)
    expect(Number(row.ClosePrice)).toBeCloseTo(Number(last.last), 2)
    expect(Number(row.ChangePCT)).toBeCloseTo(((Number(last.last) - Number(prev.last)) / Number(prev.last)) * 100, 1)
  })

  it('P/E and P/B follow the catalogue’s stated ratios: EPS = end / pe, so PE_TTM × EPS = close', async () => {
    const { body } = await screen(`?market=hk&expr=${encodeURIComponent('PB > 0')}&limit=500&orderby=PE_TTM`)
    const row = body.structured.find((r: any) => r.code === 'hk00700')
    const spec = HK_STOCKS['00700']
    expect(Number(row.PE_TTM) * (spec.end / spec.pe!)).toBeCloseTo(Number(row.ClosePrice), 0)
    expect(Number(row.PB) * (spec.end / spec.pb!)).toBeCloseTo(Number(row.ClosePrice), 0)
  })

  it('a loss-maker has no P/E (null, not invented): it is left out of PE_TTM > 0', async () => {
    const { body } = await screen(`?market=us&expr=${encodeURIComponent('PE_TTM > 0')}&limit=500`)
    expect(body.structured.map((r: any) => r.code)).not.toContain('usNIO')
  })

  it.each([
    ['ROETTM > 10', 'ROETTM'],
    ['ma_MA_5 > ClosePrice', 'ma_MA_5'],
    ['intersect([PE_TTM > 0, DividendYield > 3])', 'DividendYield'],
  ])('answers 422 for an A-share-only factor on hk: %s', async (expr, factor) => {
    const { status, body } = await screen(`?market=hk&expr=${encodeURIComponent(expr)}`)
    expect(status).toBe(422)
    expect(body.detail[0]).toMatchObject({ loc: ['query', 'expr'], msg: expect.stringContaining(`${factor} is not available for market hk`) })
  })

  it('the cron run waits for the close; a live run (first start) builds a provisional table the after-close run replaces', async () => {
    await resetWorld('2026-11-23T10:30:00+08:00') // Monday, HK morning session
    expect((await build('hk')).body).toMatchObject({ status: 'skipped', date: '2026-11-23', reason: expect.stringContaining('not over') })
    expect((await build('hk', true)).body).toMatchObject({ status: 'done', date: '2026-11-23', final: false })
    expect((await screen('?preset=HKLowPE')).body.date).toBe('2026-11-23')
    await resetWorld('2026-11-23T16:45:00+08:00')
    expect((await build('hk')).body).toMatchObject({ status: 'done', date: '2026-11-23', final: true })
    expect((await build('hk')).body).toMatchObject({ status: 'skipped' })
  })

  it.each([
    ['hk', '40 8,9 * * 1-5', '2026-11-24T16:40:00+08:00', '2026-11-24'],
    ['us', '45 21,22 * * 1-5', '2026-11-24T21:45:00Z', '2026-11-24'],
  ] as const)('the %s cron (%s) builds the table of the session just closed', async (market, cron, clock, date) => {
    await resetWorld(clock)
    await JOBS[cron](createScheduledController({ scheduledTime: Date.parse(clock), cron }), env, createExecutionContext(), services)
    const t = await readFactorTable(env.STORE, market)
    expect(t).toMatchObject({ market, date })
    expect((await screen(`?market=${market}&expr=${encodeURIComponent('ClosePrice > 0')}`)).body).toMatchObject({ ok: true, date })
  })

  it('a list that fails on both hosts writes nothing and answers 502 (the cron tries again)', async () => {
    await resetWorld('2026-11-25T16:40:00+08:00')
    await fault('eastmoney', 'garbage', { count: 100 })
    const r = await build('hk')
    expect(r).toMatchObject({ status: 502, body: { status: 'error', market: 'hk' } })
    expect((await readFactorTable(env.STORE, 'hk'))?.date).toBe('2026-11-24')
  })
})
