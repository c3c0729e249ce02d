import { env } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { PRESETS } from '../src/data/screen-presets'
import { deletePrefix } from '../src/store/r2-json'
import { writeFactorTable, type StoredFactorTable } from '../src/store/factor-table'
import { getJson, makeKey, resetWorld } from './helpers'

// A small hs table written as the after-close job writes one; these tests check what the route does
// with a table (parse, filter, sort, format, errors), not how the table is built.
const TABLE: StoredFactorTable = {
  market: 'hs',
  date: '2026-11-20',
  built_at: '2026-11-20T08:00:00Z',
  codes: ['sh600000', 'sh600519', 'sz000001', 'sz000002', 'bj830799'],
  names: ['浦发银行', '贵州茅台', '平安银行', '万科A', '艾融软件'],
  columns: {
    ClosePrice: [8.12, 1520, 11.3, 7.05, 30.2],
    ChangePCT: [0.5, 0.76, -1.2, -3.4, 9.99],
    PE_TTM: [5.1, 21.4, 4.6, null, 60.2],
    ROETTM: [9.2, 33.12, 10.4, -12.5, 8],
    TotalMV: [2400, 19094, 2190, 840, 63],
  },
}

let key = ''
const screen = (qs: string, k = key) => getJson('/v1/screen' + qs, { headers: { authorization: `Bearer ${k}` } })

beforeAll(async () => {
  await resetWorld()
  key = await makeKey('trial')
  await deletePrefix(env.STORE, 'factors/')
  await deletePrefix(env.STORE, 'meta/factors-')
  await writeFactorTable(env.STORE, TABLE)
})

describe('GET /v1/screen', () => {
  it('answers data, structured and tables with the same rows: code, name, the factors used, ClosePrice, ChangePCT', async () => {
    const { status, body } = await screen('?expr=' + encodeURIComponent('intersect([PE_TTM < 25, ROETTM > 5])') + '&orderby=PE_TTM&desc=false')
    expect(status).toBe(200)
    expect(body).toMatchObject({ ok: true, endpoint: 'screen', source: 'store', market: 'hs', date: '2026-11-20', matched: 3, returned: 3, orderby: 'PE_TTM', desc: false })
    expect(body.structured.map((r: any) => r.code)).toEqual(['sz000001', 'sh600000', 'sh600519'])
    expect(body.structured[2]).toEqual({ code: 'sh600519', name: '贵州茅台', PE_TTM: '21.4', ROETTM: '33.12', ClosePrice: '1520.00', ChangePCT: '0.76' })
    expect(body.tables).toEqual([{ title: 'intersect([PE_TTM < 25, ROETTM > 5])', columns: ['code', 'name', 'PE_TTM', 'ROETTM', 'ClosePrice', 'ChangePCT'], rows: body.structured }])
    const lines = body.data.trim().split('\n')
    expect(lines[0]).toBe('| code | name | PE_TTM | ROETTM | ClosePrice | ChangePCT |')
    expect(lines.slice(2).map((l: string) => l.split(' | ')[0].slice(2))).toEqual(['sz000001', 'sh600000', 'sh600519'])
  })

  it('sorts descending by default, puts rows without a value last, and cuts to limit', async () => {
    const { body } = await screen('?expr=' + encodeURIComponent('TotalMV > 0') + '&orderby=PE_TTM&limit=4')
    expect(body.structured.map((r: any) => r.code)).toEqual(['bj830799', 'sh600519', 'sh600000', 'sz000001'])
    expect(body.matched).toBe(5)
    const all = await screen('?expr=' + encodeURIComponent('TotalMV > 0') + '&orderby=PE_TTM')
    expect(all.body.structured.at(-1)).toMatchObject({ code: 'sz000002', PE_TTM: '' })
  })

  it('runs a preset with its own order, and says which', async () => {
    const { body } = await screen('?preset=LowPE')
    expect(body).toMatchObject({ ok: true, preset: 'LowPE', expr: 'intersect([PE_TTM > 0, PE_TTM < 15])', orderby: 'PE_TTM', desc: false })
    expect(body.structured.map((r: any) => r.code)).toEqual(['sz000001', 'sh600000'])
  })

  it('answers ok:false NO_MATCH when nothing matches, and does not count it', async () => {
    const fresh = await makeKey('trial')
    const { body } = await screen('?expr=PE_TTM<0', fresh)
    expect(body).toMatchObject({ ok: false, code: 'NO_MATCH', data: '', structured: [], tables: [], matched: 0 })
    expect((await screen('?preset=LowPE', fresh)).body.ok).toBe(true)
    await new Promise((r) => setTimeout(r, 50)) // settlement runs in waitUntil
    const usage = await getJson('/v1/usage', { headers: { authorization: `Bearer ${fresh}` } })
    expect(usage.body.data.units_today).toBe(1)
  })

  it('answers ok:false FACTOR_UNAVAILABLE for a factor the table does not carry, rather than matching nothing', async () => {
    const { body } = await screen('?expr=' + encodeURIComponent('intersect([PE_TTM < 25, DividendYield > 1])'))
    expect(body).toMatchObject({ ok: false, code: 'FACTOR_UNAVAILABLE', error: expect.stringContaining('DividendYield') })
  })

  it('answers ok:false NO_DATA for a market whose table is not built', async () => {
    const { body } = await screen('?market=hk&expr=PE_TTM<10')
    expect(body).toMatchObject({ ok: false, code: 'NO_DATA', market: 'hk' })
  })

  it.each([
    ['expr=ROE_TTM%3E10', 'expr', /position 0: unknown factor ROE_TTM; did you mean ROETTM\?/],
    ['expr=PE_TTM%3C', 'expr', /position 7: expected a number/],
    ['market=hk&expr=ROETTM%3E1', 'expr', /ROETTM is not available for market hk \(it exists for market hs\)/],
    ['expr=PB%3C1&preset=LowPB', 'preset', /not both/],
    ['preset=Nope', 'preset', /unknown preset Nope; presets: LowPE/],
    ['', 'expr', /expr or preset is required/],
    ['expr=PB%3C1&orderby=Nope', 'orderby', /unknown factor Nope/],
    ['expr=PB%3C1&limit=0', 'limit', /at least 1/],
    ['expr=PB%3C1&desc=yes', 'desc', /true or false/],
    ['expr=PB%3C1&market=cn', 'market', /hs, hk, us/],
    ['expr=' + '('.repeat(20) + 'PB' + ')'.repeat(20) + '%3C1', 'expr', /deeper than 16/],
    ['expr=' + 'PB%3C1,'.repeat(500), 'expr', /at most 2000/],
  ])('answers 422 naming the field (case %#)', async (qs, field, msg) => {
    const { status, body } = await screen('?' + qs)
    expect(status).toBe(422)
    expect(body.detail[0].loc).toEqual(['query', field])
    expect(body.detail[0].msg).toMatch(msg)
  })

  it("documents preset as an enum of every preset's name (generated clients get the union)", async () => {
    const doc = (await getJson('/openapi.json')).body
    const op = doc.paths['/v1/screen'].get
    const preset = op.parameters.find((p: any) => p.name === 'preset')
    expect(preset.schema).toMatchObject({ type: 'string', enum: PRESETS.map((p) => p.name) })
    expect(preset.schema.enum).toHaveLength(22)
    expect(op.summary).toContain('22 presets')
  })

  it('needs a key', async () => {
    const { status, body } = await getJson('/v1/screen?preset=LowPE', { anonymous: true })
    expect(status).toBe(401)
    expect(body.code).toBe('KEY_REQUIRED')
  })
})
