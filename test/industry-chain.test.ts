import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import doc from '../public/_data/industry-chains.json'
import { chainThemes } from '../src/data/industry-chains'
import { scheduledHandler } from '../src/jobs'
import { market } from '../src/emulator/market'
import { compositionOf, companyProfileOf } from '../src/emulator/market/business'
import { runIndustryChainJob, runIndustryChainToEnd } from '../src/jobs/industry-chain'
import { fault, getJson, makeKey, resetWorld, SESSION_CLOCK } from './helpers'
import { deletePrefix } from '../src/store/r2-json'
import { services } from './store-app'

const NOW = Date.parse(SESSION_CLOCK)
/** A few themes keep the job's upstream walk short; the route validates topics against all of them. */
const ALL = chainThemes(doc)
const THEMES = ['锂电池', '储能', '新能源汽车', '白酒'].map((n) => ALL.of(n)!)

async function build() {
  return runIndustryChainToEnd({ store: env.STORE, ctx: services.channelContext, now: () => NOW, themes: THEMES, budget: 10_000 })
}

describe('GET /v1/industry-chain', () => {
  beforeEach(async () => {
    await resetWorld()
    // R2 outlives a test here: every test starts with no members built.
    await deletePrefix(env.STORE, 'chains/')
  })

  it('answers ok:false NOT_BUILT before the job has run', async () => {
    const { status, body } = await getJson('/v1/industry-chain')
    expect(status).toBe(200)
    expect(body).toMatchObject({ ok: false, code: 'NOT_BUILT', endpoint: 'industry-chain' })
  })

  it('the job reads the emulator\'s boards and compositions; list, graph and stock agree with them', async () => {
    const run = await build()
    expect(run.complete).toBe(true)
    expect(run.failures).toBe(0)

    const list = await getJson('/v1/industry-chain?mode=list')
    expect(list.body).toMatchObject({ ok: true, mode: 'list', complete: true, as_of: SESSION_CLOCK })
    expect(list.body.data.map((t: any) => t.name)).toEqual(THEMES.map((t) => t.name))
    for (const t of list.body.data) expect(t.stocks).toBeGreaterThan(0)

    const graph = await getJson(`/v1/industry-chain?mode=detail&topic=${encodeURIComponent('锂电池')}`)
    expect(graph.body).toMatchObject({ ok: true, mode: 'graph', data: { id: 'lithium-battery', name: '锂电池' } })
    expect(graph.body.data.edges).toEqual(THEMES[0].edges)
    const cathode = graph.body.data.nodes.find((n: any) => n.name === '正极材料')
    expect(cathode).toMatchObject({ position: 'upstream', computed_at: SESSION_CLOCK })
    expect(cathode.rule).toContain('concept boards 锂电池')
    for (const s of cathode.stocks) {
      // Every member's composition names the node's product, and relevance is that line's share.
      const comp = compositionOf(market, market.byCode(s.code)!, NOW)!
      const share = comp.products.filter((p) => ['正极材料', '磷酸铁锂', '三元前驱体'].some((k) => p.name.includes(k))).reduce((a, p) => a + p.ratio, 0)
      expect(s.relevance).toBeCloseTo(share, 4)
      expect(s.name).toBe(market.byCode(s.code)!.name)
    }

    // 宁德时代: lithium battery cells, storage cells and EV batteries.
    const stock = await getJson('/v1/industry-chain?mode=stock&code=sz300750')
    expect(stock.body).toMatchObject({ ok: true, mode: 'stock', data: { code: 'sz300750', name: '宁德时代', business: companyProfileOf(market.byCode('sz300750')!)!.profile } })
    const themes = new Set(stock.body.data.chains.map((c: any) => c.theme))
    expect(themes.has('锂电池') && themes.has('储能') && themes.has('新能源汽车')).toBe(true)
    const cell = stock.body.data.chains.find((c: any) => c.theme === '锂电池' && c.node === '锂电池电芯')
    expect(cell).toMatchObject({ position: 'midstream', relevance: 0.6972, via: 'keyword:动力电池' })
    for (const c of stock.body.data.chains) expect(c.relevance === null || (c.relevance >= 0 && c.relevance <= 1)).toBe(true)

    // A stock in no node: ok with no chains.
    const bank = await getJson('/v1/industry-chain?mode=stock&code=sh601398')
    expect(bank.body).toMatchObject({ ok: true, data: { code: 'sh601398', chains: [] } })
  })

  it('a second run with nothing due fetches nothing (idempotent)', async () => {
    await build()
    const again = await build()
    expect(again).toMatchObject({ requests: 0, boards_fetched: 0, compositions_fetched: 0, complete: true })
  })

  it('is resumable: a small budget builds part of it, says so, and the next runs carry on; a failed fetch is retried', async () => {
    const deps = { store: env.STORE, ctx: services.channelContext, now: () => NOW, themes: THEMES, budget: 40 }
    const first = await runIndustryChainJob(deps)
    expect(first.complete).toBe(false)
    expect(first.requests).toBeLessThanOrEqual(40 + 2)
    const partial = await getJson('/v1/industry-chain')
    expect(partial.body).toMatchObject({ ok: true, complete: false })
    expect(partial.body.coverage.compositions).toBeLessThan(partial.body.coverage.candidates)

    await fault('eastmoney', 'garbage', { count: 3 })
    const faulty = await runIndustryChainJob(deps)
    expect(faulty.failures).toBeGreaterThan(0)
    const done = await runIndustryChainToEnd({ ...deps, budget: 10_000 })
    expect(done).toMatchObject({ complete: true, failures: 0 })
    expect(done.coverage.compositions).toBe(done.coverage.candidates)
  })

  it('runs from the cron: one bounded run over every theme writes members the route serves', async () => {
    const ctx = createExecutionContext()
    await scheduledHandler(services)(createScheduledController({ scheduledTime: NOW, cron: '*/20 16-21 * * *' }), env, ctx)
    await waitOnExecutionContext(ctx)
    const { body } = await getJson('/v1/industry-chain')
    expect(body).toMatchObject({ ok: true, complete: false })
    expect(body.data).toHaveLength(ALL.list.length)
    // The run stopped at its budget: boards first, compositions of the candidates later.
    expect(body.coverage.boards).toBeGreaterThan(0)
    expect(body.coverage.compositions).toBeLessThan(body.coverage.candidates)
  }, 120_000)

  it('422s name the missing or wrong parameter; an unknown topic suggests the nearest themes', async () => {
    const q = async (qs: string) => (await getJson(`/v1/industry-chain?${qs}`))
    let r = await q('mode=graph')
    expect(r.status).toBe(422)
    expect(r.body.detail[0]).toMatchObject({ loc: ['query', 'topic'] })
    r = await q('mode=stock')
    expect(r.status).toBe(422)
    expect(r.body.detail[0]).toMatchObject({ loc: ['query', 'code'] })
    r = await q(`mode=graph&topic=${encodeURIComponent('锂电')}`)
    expect(r.status).toBe(422)
    expect(r.body.detail[0].msg).toContain('锂电池')
    r = await q(`mode=graph&topic=${encodeURIComponent("$'%")}`)
    expect(r.status).toBe(422)
    r = await q('mode=stock&code=xx1')
    expect(r.status).toBe(422)
    r = await q('mode=nope')
    expect(r.status).toBe(422)
  })

  it('reads its themes from the Worker\'s static assets, which the public cannot fetch', async () => {
    // The Worker's own read (env.ASSETS) holds the checked-in file …
    const asset = await env.ASSETS.fetch(new Request('https://assets/_data/industry-chains.json'))
    expect(asset.status).toBe(200)
    expect(await asset.json()).toEqual(doc)
    // … while the public's request for it is the Worker's (wrangler.toml run_worker_first): its JSON 404.
    const pub = await getJson('/_data/industry-chains.json', { anonymous: true })
    expect(pub.status).toBe(404)
    expect(pub.body).toMatchObject({ code: 'NOT_FOUND' })
    // Every theme the file names is a topic the route knows.
    const last = ALL.list[ALL.list.length - 1]
    const r = await getJson(`/v1/industry-chain?mode=graph&topic=${encodeURIComponent(last.name)}`)
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({ ok: false, code: 'NOT_BUILT' })
  })

  it('needs a key of tier trial or above', async () => {
    const r = await getJson('/v1/industry-chain', { anonymous: true })
    expect(r.status).toBe(401)
    const trial = await makeKey('trial')
    const t = await getJson('/v1/industry-chain', { headers: { authorization: `Bearer ${trial}` } })
    expect(t.status).toBe(200)
  })
})
