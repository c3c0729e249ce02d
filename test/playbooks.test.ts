import { env } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { PERIODS, PLAYBOOK_THEMES, PLAYBOOKS } from '../src/data/playbooks'
import { emptyPartial, evidenceOf } from '../src/domain/backtest/engine'
import { addReturn } from '../src/domain/backtest/stats'
import { EVIDENCE_VERSION } from '../src/store/playbook-evidence'
import type { StoredEvidence } from '../src/store/shapes'
import { PLAYBOOK_EVIDENCE_KEY } from '../src/store/keys'
import { putJson } from '../src/store/r2-json'
import { EXAMPLE_BACKTEST, PlaybooksResponse } from '../src/routes/playbooks'
import { getJson, makeKey, resetWorld } from './helpers'

let pro = ''
const playbooks = (qs = '', key = pro) => getJson('/v1/playbooks' + qs, { headers: { authorization: `Bearer ${key}` } })

/** Evidence as the job stores it, with one playbook's figures filled in (the job itself is tested in playbook-backtest.test.ts). */
function storedEvidence(): StoredEvidence {
  const p = emptyPartial(PERIODS.length)
  p.signals = 3
  p.entries = 2
  p.first_entry = '2026-03-02'
  p.last_entry = '2026-06-01'
  for (const r of [0.05, -0.01]) {
    addReturn(p.fixed[0], r)
    addReturn(p.rule, r)
  }
  const index = new Map([['2026-03-02', { open: 4000, close: 4010 }]])
  return {
    v: EVIDENCE_VERSION,
    ...EXAMPLE_BACKTEST,
    simulated: true,
    note: 'Computed on simulated data: the emulator\'s made-up market, not real prices.',
    playbooks: Object.fromEntries(PLAYBOOKS.map((x, i) => [x.id, evidenceOf(i === 0 ? p : emptyPartial(PERIODS.length), x.periods, index)])),
  }
}

beforeAll(async () => {
  await resetWorld()
  pro = await makeKey('pro')
  await env.STORE.delete(PLAYBOOK_EVIDENCE_KEY)
})

describe('GET /v1/playbooks', () => {
  it('before the backtest has run: every playbook with evidence null and a notice', async () => {
    const { status, body } = await playbooks()
    expect(status).toBe(200)
    expect(body).toMatchObject({ ok: true, endpoint: 'playbooks', source: 'none', backtest: null })
    expect(body.notice).toMatch(/not computed yet/)
    expect(body.data.map((p: any) => p.id)).toEqual(PLAYBOOKS.map((p) => p.id))
    expect(body.data.every((p: any) => p.evidence === null)).toBe(true)
    // The body is exactly what /openapi.json describes: parsing keeps every field (zod drops unknown ones).
    expect(PlaybooksResponse.parse(body)).toEqual(body)
  })

  it('serves the stored evidence with its provenance', async () => {
    const ev = storedEvidence()
    await putJson(env.STORE, PLAYBOOK_EVIDENCE_KEY, ev)
    const { body } = await playbooks()
    expect(body).toMatchObject({ ok: true, source: 'store', as_of: '2026-11-20', backtest: { through: '2026-11-20', simulated: true, period: ev.period, universe: ev.universe } })
    expect(body.backtest.note).toMatch(/simulated data/)
    expect(body.notice).toBeUndefined()
    const first = body.data[0]
    expect(first.evidence).toMatchObject({ signals: 3, samples: 2, first_entry: '2026-03-02', exit_rule: { samples: 2, win_rate_pct: 50, mean_return_pct: 2, median_return_pct: 2 } })
    expect(first.evidence.periods[0]).toMatchObject({ sessions: 5, samples: 2, win_rate_pct: 50 })
    expect(PlaybooksResponse.parse(body)).toEqual(body)
  })

  it('category filters by theme; id returns one with its full evidence', async () => {
    const trend = (await playbooks('?category=trend-following')).body
    expect(trend.data.map((p: any) => p.id)).toEqual(['ma-alignment', 'macd-dmi-trend'])
    const one = (await playbooks('?id=dividend-uptrend')).body
    expect(one.data).toHaveLength(1)
    expect(one.data[0]).toMatchObject({ id: 'dividend-uptrend', theme: 'dividend', evidence: { samples: 2, losses_avoided: { samples: 0 } } })
    expect((await playbooks('?id=dividend-uptrend&category=dividend')).body.data).toHaveLength(1)
  })

  it('an unknown id or category is a 422 listing the valid ones; an id of another theme names both', async () => {
    const id = await playbooks('?id=nope')
    expect(id.status).toBe(422)
    expect(id.body.detail[0].loc).toEqual(['query', 'id'])
    for (const p of PLAYBOOKS) expect(id.body.detail[0].msg).toContain(p.id)
    const cat = await playbooks('?category=value')
    expect(cat.status).toBe(422)
    expect(cat.body.detail[0].loc).toEqual(['query', 'category'])
    for (const t of PLAYBOOK_THEMES) expect(cat.body.detail[0].msg).toContain(t)
    const both = await playbooks('?id=dividend-uptrend&category=momentum')
    expect(both.status).toBe(422)
    expect(both.body.detail[0]).toMatchObject({ loc: ['query', 'category'], msg: 'playbook dividend-uptrend is of theme dividend, not momentum' })
    for (const odd of ["$'", '%25', '', 'x'.repeat(3000)]) expect((await playbooks(`?id=${encodeURIComponent(odd)}`)).status).toBe(422)
  })

  it('needs a pro key: trial and standard are refused, no key is 401', async () => {
    expect((await playbooks('', await makeKey('standard'))).body.code).toBe('TIER_TOO_LOW')
    expect((await getJson('/v1/playbooks', { anonymous: true })).status).toBe(401)
    expect((await playbooks('', await makeKey('unlimited'))).status).toBe(200)
  })

  it('/openapi.json documents it: pro, cost 1, not heavy, an example that fits the schema exactly', async () => {
    const { body } = await getJson('/openapi.json')
    const op = body.paths['/v1/playbooks'].get
    expect(op).toMatchObject({ 'x-min-tier': 'pro', 'x-cost': 1 })
    expect(op['x-heavy']).toBeUndefined()
    const example = body.components.schemas.PlaybooksEnvelope.example
    expect(PlaybooksResponse.parse(example)).toEqual(example)
    expect(example.data[0].evidence.periods).toHaveLength(3)
  })
})
