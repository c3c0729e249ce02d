import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from 'cloudflare:test'
import wrangler from '../wrangler.toml?raw'
import { JOBS, scheduledHandler } from '../src/jobs'
import { beforeAll, describe, expect, it } from 'vitest'
import { PLAYBOOKS } from '../src/data/playbooks'
import { market } from '../src/emulator/market'
import { buildHistory } from '../src/jobs/build-history'
import { playbookBacktestJob, PLAYBOOK_JOB, warmedUp, WARMUP } from '../src/jobs/playbook-backtest'
import { readEvidence } from '../src/store/playbook-evidence'
import { BACKTEST_FACTORS, stockSeries } from '../src/domain/backtest/series'
import { marketSource } from '../src/jobs/testing'
import { parseSymbol } from '../src/domain/symbols'
import { indexOnOrAfter, readHistory, writeHistory } from '../src/store/history'
import { cursorKey, PLAYBOOK_EVIDENCE_KEY, PLAYBOOK_STAGING_PREFIX } from '../src/store/keys'
import { profilesOf, readRunRecord, updateManifest, writeUniverse } from '../src/store/meta'
import { deletePrefix } from '../src/store/r2-json'
import { PlaybooksResponse } from '../src/routes/playbooks'
import { getJson, resetWorld } from './helpers'
import { post, services } from './store-app'

// The backtest job over about 120 stocks of the emulator's market, histories stored as the backfill
// stores them: resumable runs, idempotence, byte-identical evidence, and every playbook trading.
const DATE = '2026-11-20'
const NOW = Date.parse('2026-11-20T20:00:00+08:00')
const stocks = market.instruments().filter((i) => i.kind === 'stock')
const CODES = stocks.filter((_, i) => i % Math.floor(stocks.length / 118) === 0).map((i) => i.code).slice(0, 120)
const source = marketSource(market, CODES, () => NOW)
let buildMs = 0

async function clearBacktest() {
  await env.STORE.delete([PLAYBOOK_EVIDENCE_KEY, cursorKey(PLAYBOOK_JOB)])
  await deletePrefix(env.STORE, PLAYBOOK_STAGING_PREFIX)
}

beforeAll(async () => {
  await resetWorld('2026-11-20T20:00:00+08:00')
  await deletePrefix(env.STORE, 'history/')
  await clearBacktest()
  for (const code of CODES) {
    const h = await buildHistory(source, code, DATE)
    if (h) await writeHistory(env.STORE, h)
  }
  const list = await source.snapshot()
  await writeUniverse(env.STORE, { date: DATE, codes: [...CODES].sort(), names: Object.fromEntries(list.map((r) => [r.code, market.byCode(r.code)!.name])), profiles: profilesOf(list) })
  await updateManifest(env.STORE, { historyThrough: DATE }, NOW)
}, 180_000)

describe('playbook backtest job', () => {
  let first = ''

  it('resumes chunk by chunk, then stores evidence for every playbook', async () => {
    const t0 = Date.now()
    const a = await playbookBacktestJob(env, services, { source, chunk: 50, maxMs: 0 })
    expect(a).toMatchObject({ status: 'partial', through: DATE, chunks: { done: 1, total: 3 } })
    expect(await readEvidence(env.STORE)).toBeUndefined()
    const b = await playbookBacktestJob(env, services, { source, maxMs: 0 })
    expect(b).toMatchObject({ status: 'partial', chunks: { done: 2, total: 3 } })
    const c = await playbookBacktestJob(env, services, { source, maxMs: 0 })
    buildMs = Date.now() - t0
    expect(c).toMatchObject({ status: 'done', through: DATE, chunks: { done: 3, total: 3 }, stocks: CODES.length })
    const ev = (await readEvidence(env.STORE))!
    expect(ev).toMatchObject({ through: DATE, simulated: true, period: { to: DATE, sessions: 250 }, index: { code: 'sh000300' }, costs: { commission_pct: 0.025, stamp_duty_pct: 0.05 } })
    expect(ev.note).toMatch(/simulated data/)
    expect(ev.universe.with_history).toBe(CODES.length)
    expect(Object.keys(ev.playbooks)).toEqual(PLAYBOOKS.map((p) => p.id))
    first = (await (await env.STORE.get(PLAYBOOK_EVIDENCE_KEY))!.text())
    // The staging is gone once the evidence is written.
    expect((await env.STORE.list({ prefix: PLAYBOOK_STAGING_PREFIX })).objects).toHaveLength(0)
    console.log(`backtest of ${CODES.length} stocks × ${PLAYBOOKS.length} playbooks × 250 sessions: ${c.compute_ms} ms of chunk compute (${buildMs} ms in 3 runs)`)
  }, 120_000)

  it('every playbook\'s entry selects stock-days on the emulator and trades, with figures that add up', async () => {
    const ev = (await readEvidence(env.STORE))!
    for (const p of PLAYBOOKS) {
      const e = ev.playbooks[p.id]
      expect(e.signals, p.id).toBeGreaterThan(0)
      expect(e.samples, p.id).toBeGreaterThan(0)
      expect(e.samples + e.blocked_limit_up, p.id).toBeLessThanOrEqual(e.signals)
      expect(e.periods.map((x) => x.sessions)).toEqual(p.periods)
      // Longer periods have no more samples than shorter ones (the data ends for more of them).
      for (let i = 1; i < e.periods.length; i++) expect(e.periods[i].samples).toBeLessThanOrEqual(e.periods[i - 1].samples)
      expect(e.exit_rule.samples + e.open_at_end, p.id).toBe(e.samples)
      expect(e.max_drawdown_pct).toBeLessThanOrEqual(0)
      expect(e.first_entry! >= ev.period.from && e.last_entry! <= DATE).toBe(true)
      for (const x of e.periods) if (x.samples) expect(x.win_rate_pct! >= 0 && x.win_rate_pct! <= 100).toBe(true)
    }
  })

  it('a run after the evidence is of the latest day changes nothing', async () => {
    const before = await env.STORE.head(PLAYBOOK_EVIDENCE_KEY)
    const r = await playbookBacktestJob(env, services, { source })
    expect(r).toMatchObject({ status: 'done', noop: true, through: DATE })
    expect((await env.STORE.head(PLAYBOOK_EVIDENCE_KEY))!.etag).toBe(before!.etag)
  })

  it('/v1/playbooks serves the job\'s evidence as stored, in the documented shape', async () => {
    const ev = (await readEvidence(env.STORE))!
    const { body } = await getJson('/v1/playbooks?id=oversold-bounce')
    expect(body).toMatchObject({ ok: true, source: 'store', as_of: DATE, backtest: { simulated: true, through: DATE, universe: ev.universe } })
    expect(body.data[0].evidence).toEqual(ev.playbooks['oversold-bounce'])
    expect(PlaybooksResponse.parse(body)).toEqual(body)
  })

  it('POST /__jobs/playbooks runs the job (the backfill driver and npm start call it)', async () => {
    const r = await post('/__jobs/playbooks')
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({ status: 'done', noop: true, through: DATE })
  })

  it('factors from the warm-up bars equal those from the whole history (all but the level of OBV)', async () => {
    for (const code of CODES.slice(0, 8)) {
      const h = (await readHistory(env.STORE, code))!
      const first = indexOnOrAfter(h, '2025-11-11')
      expect(first).toBeGreaterThan(WARMUP)
      const whole = stockSeries(code, h, first, 'sh-main', '')
      const warm = stockSeries(code, warmedUp(h, first), WARMUP, 'sh-main', '')
      expect(warm.dates).toEqual(whole.dates)
      expect(Array.from(warm.open)).toEqual(Array.from(whole.open))
      for (const f of BACKTEST_FACTORS.filter((x) => x !== 'obv_OBV')) expect(Array.from(warm.table.column(f)), `${code} ${f}`).toEqual(Array.from(whole.table.column(f)))
    }
  })

  it('trades execute at /v1/kline\'s forward-adjusted prices, and the benchmark is /v1/kline\'s sh000300 (one market, two views)', async () => {
    for (const code of CODES.slice(0, 4)) {
      const h = (await readHistory(env.STORE, code))!
      const first = indexOnOrAfter(h, '2026-09-01')
      const series = stockSeries(code, warmedUp(h, first), Math.min(first, WARMUP), 'sh-main', '')
      const bars = (await getJson(`/v1/kline?code=${code}&start=2026-09-01&end=${DATE}`)).body.data.slice().reverse()
      expect(bars.map((b: any) => b.date), code).toEqual(series.dates)
      bars.forEach((b: any, i: number) => {
        // /v1/kline prints 2 decimals; the backtest keeps the exact product.
        expect(Math.abs(Number(b.open) - series.open[i]), `${code} ${b.date}`).toBeLessThanOrEqual(0.0051)
        expect(Math.abs(Number(b.last) - series.close[i]), `${code} ${b.date}`).toBeLessThanOrEqual(0.0051)
      })
    }
    const index = await source.rawDaily(parseSymbol('sh000300'), '2026-11-02', DATE)
    const kline = (await getJson(`/v1/kline?code=sh000300&start=2026-11-02&end=${DATE}`)).body.data.slice().reverse()
    expect(kline.map((b: any) => [b.date, Number(b.open), Number(b.last)])).toEqual(index.map((b) => [b.date, b.open, b.close]))
  })

  // The recovering runs are cut differently from the first test's (one chunk, one of the default
  // size, then as many as a minute allows): equal bytes show both properties at once.
  it('recovers when its staging is lost mid-way (the lost chunk is computed again), and the same history gives byte-identical evidence however the runs were cut', async () => {
    await clearBacktest()
    await playbookBacktestJob(env, services, { source, chunk: 50, maxMs: 0 })
    await playbookBacktestJob(env, services, { source, maxMs: 0 })
    await env.STORE.delete(`${PLAYBOOK_STAGING_PREFIX}${DATE}/chunk-00000.json`)
    const lost = await playbookBacktestJob(env, services, { source, maxMs: 0 })
    expect(lost).toMatchObject({ status: 'partial', chunks: { done: 0, total: 3 } })
    let r = lost
    while (r.status === 'partial') r = await playbookBacktestJob(env, services, { source, maxMs: 60_000 })
    expect(r.status).toBe('done')
    expect(await (await env.STORE.get(PLAYBOOK_EVIDENCE_KEY))!.text()).toBe(first)
    // Without the benchmark's staged bars the run starts over.
    await clearBacktest()
    await playbookBacktestJob(env, services, { source, chunk: 50, maxMs: 0 })
    await deletePrefix(env.STORE, PLAYBOOK_STAGING_PREFIX)
    expect(await playbookBacktestJob(env, services, { source, chunk: 50, maxMs: 0 })).toMatchObject({ status: 'partial', chunks: { done: 1, total: 3 } })
  }, 120_000)

  it('runs from the evening cron through the real upstream path for the benchmark, as wrangler.toml schedules it', async () => {
    const cron = '*/10 11-15 * * 1-5'
    expect(JOBS[cron]).toBeDefined()
    expect(wrangler).toContain(`"${cron}"`)
    await clearBacktest()
    const ctx = createExecutionContext()
    await scheduledHandler(services)(createScheduledController({ scheduledTime: NOW, cron }), env, ctx)
    await waitOnExecutionContext(ctx)
    const runs = (await readRunRecord(env.STORE, PLAYBOOK_JOB, DATE))!.runs
    expect(runs.at(-1)).toMatchObject({ through: DATE, chunks: { total: 2 } })
    expect(['partial', 'done']).toContain(runs.at(-1)!.status)
  }, 120_000)

  it('skips while the store has no history', async () => {
    await env.STORE.delete('meta/manifest.json')
    const r = await playbookBacktestJob(env, services, { source })
    expect(r).toMatchObject({ status: 'skipped' })
    await updateManifest(env.STORE, { historyThrough: DATE }, NOW)
  })
})
