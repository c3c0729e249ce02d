import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { market } from '../src/emulator/market/index'
import { marketDayJob, type MarketDayCursor } from '../src/jobs/market-day'
import { readHistory } from '../src/store/history'
import { marketKlineKey } from '../src/store/keys'
import { readMarketDay } from '../src/store/market-kline'
import { readCursor } from '../src/store/meta'
import { fault, resetWorld } from './helpers'
import { services } from './store-app'

/** The after-close job through the real upstream path (emulator wire → Eastmoney parsers). */
async function run(chunk: number) {
  const ctx = createExecutionContext()
  const ctl = createScheduledController({ scheduledTime: services.now(), cron: '30 7 * * 1-5' })
  const e = await marketDayJob(ctl, env, ctx, services, { chunk })
  await waitOnExecutionContext(ctx)
  return e as any
}

beforeAll(() => resetWorld('2026-11-20T16:00:00+08:00'))

describe('market-day job against the emulator, with upstream faults', () => {
  it('writes no blob while the market list fails, then the whole market once it answers', async () => {
    await fault('eastmoney', 'http', { count: 1 })
    const failed = await run(4)
    expect(failed).toMatchObject({ status: 'error', error: expect.stringContaining('HTTP 502') })
    expect(await env.STORE.head(marketKlineKey('2026-11-20'))).toBeNull()

    const ok = await run(4)
    expect(ok).toMatchObject({ status: 'partial', blob: { status: 'written', rows: 5572, halted: 0 }, histories: { next: 4, built: 4 } })
    const rows = (await readMarketDay(env.STORE, '2026-11-20'))!
    expect(rows.map((r) => r.code)).toEqual(market.instruments().filter((i) => i.kind === 'stock').map((i) => i.code).sort())
  })

  it('resumes after an upstream fault part-way through the histories', async () => {
    await fault('eastmoney', 'http', { count: 1 })
    const cut = await run(4)
    expect(cut.status).toBe('partial')
    expect(cut.histories.error).toMatch(/HTTP 502/)
    expect(cut.histories.next).toBeGreaterThanOrEqual(4)
    expect(cut.histories.next).toBeLessThan(8)
    const resumed = await run(8 - cut.histories.next)
    expect(resumed).toMatchObject({ status: 'partial', blob: { status: 'exists' }, histories: { next: 8 } })
    expect(resumed.histories.error).toBeUndefined()
    const cursor = (await readCursor<MarketDayCursor>(env.STORE, 'market-day'))!
    expect(cursor).toMatchObject({ date: '2026-11-20', next: 8, total: 5572, done: false, failures: {} })
    const now = services.now()
    for (const row of (await readMarketDay(env.STORE, '2026-11-20'))!.slice(0, 8)) {
      const inst = market.byCode(row.code)!
      const h = (await readHistory(env.STORE, row.code))!
      expect(h.c, row.code).toEqual(market.dailyBars(inst, '2016-08-08', '2026-11-20', now).map((b) => b.close))
      expect(h.act.map((a) => a[0]), row.code).toEqual(market.actions(inst, now).map((a) => a.exDate))
    }
  })
})
