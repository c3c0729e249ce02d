import { env } from 'cloudflare:test'
import apiGuide from '../docs/api-guide.md?raw'
import { beforeAll, describe, expect, it } from 'vitest'
import { market } from '../src/emulator/market/index'
import { deletePrefix } from '../src/store/r2-json'
import { writeFactorTable } from '../src/store/factor-table'
import { marketRow, writeMarketDay } from '../src/store/market-kline'
import { afterClose } from './after-close'
import { readCsv } from './fixtures/csv-reader'
import { makeKey, resetWorld } from './helpers'
import { services, storeCall, storeJson } from './store-app'

// Saturday morning, frozen: 2026-11-20 is the latest session, so every JSON and CSV call of a pair
// sees the same instant (the emulator's clock does not move between them).
const CLOCK = '2026-11-21T10:00:00+08:00'
const DAY = '2026-11-20'
const CSV_TYPE = 'text/csv; charset=utf-8; header=present'

let key = ''

/** A CSV cell as the JSON value it must equal: null empty, strings as they are, anything else its JSON text. */
const cellOf = (v: unknown) => (v === null || v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v))

/** The same call as JSON and as CSV (`format=csv`), at the same instant. */
async function pair(path: string, k = key) {
  const json = await storeJson(path, { key: k })
  const res = await storeCall(path + (path.includes('?') ? '&' : '?') + 'format=csv', { key: k })
  return { json, csv: { status: res.status, type: res.headers.get('content-type'), headers: res.headers, text: await res.text() } }
}

/** Checks a CSV answer against the JSON rows: the header is `columns`, and every cell equals the JSON field at the same place. */
function expectSameTable(csv: string, rows: Record<string, unknown>[], columns: string[]) {
  const [header, ...lines] = readCsv(csv)
  expect(header).toEqual(columns)
  expect(lines).toHaveLength(rows.length)
  lines.forEach((line, i) => expect(line, `row ${i}`).toEqual(columns.map((c) => cellOf(rows[i][c]))))
}

/** A JSON-and-CSV pair whose CSV is the JSON's `rows` (ok:true answers). */
async function expectCsvOf(path: string, pick: (body: any) => Record<string, unknown>[], columns?: (body: any) => string[]) {
  const { json, csv } = await pair(path)
  expect(json.status).toBe(200)
  expect(json.body.ok, `${path}: ${json.text.slice(0, 300)}`).toBe(true)
  expect(csv.status).toBe(200)
  expect(csv.type).toBe(CSV_TYPE)
  const rows = pick(json.body)
  expect(rows.length, `${path} has rows`).toBeGreaterThan(0)
  expectSameTable(csv.text, rows, columns?.(json.body) ?? Object.keys(rows[0]))
  return { json, csv }
}

async function usageOf(k: string) {
  const u = (await storeJson('/v1/usage', { key: k })).body
  return u.data ?? u
}

beforeAll(async () => {
  await resetWorld(CLOCK)
  key = await makeKey('unlimited')
  // The store: sh600519's history and the day's technicals (kline-full, technical-batch), a small
  // factor table (screen), and a market-kline day of three stocks written as the job writes one.
  await afterClose(['sh600519', 'sz000001'], DAY, services.now())
  await deletePrefix(env.STORE, 'factors/')
  await deletePrefix(env.STORE, 'meta/factors-')
  await writeFactorTable(env.STORE, {
    market: 'hs',
    date: DAY,
    built_at: '2026-11-20T08:00:00Z',
    codes: ['sh600000', 'sh600519', 'sz000001'],
    names: ['浦发银行', '贵州茅台', '平安银行'],
    columns: { ClosePrice: [8.12, 1520, 11.3], ChangePCT: [0.5, 0.76, -1.2], PE_TTM: [5.1, 21.4, null], ROETTM: [9.2, 33.12, 10.4] },
  })
  const rows = ['sh600000', 'sh600519', 'sz000001'].map((code) => marketRow(code, market.dailyBars(market.byCode(code)!, DAY, DAY, services.now())[0]))
  await writeMarketDay(env.STORE, DAY, rows)
})

describe('CSV answers carry exactly the JSON answer’s values', () => {
  it('quote and kline: one symbol; several symbols as one table with the code first', async () => {
    const bar = ['date', 'open', 'last', 'high', 'low', 'volume', 'amount', 'turnover']
    await expectCsvOf('/v1/quote?code=sh600519&count=5', (b) => b.data, () => bar)
    await expectCsvOf('/v1/kline?code=sh600519&count=40', (b) => b.data, () => bar)
    await expectCsvOf('/v1/kline?code=sh600519,sz000001&period=week&count=10', (b) => Object.entries(b.data as Record<string, any[]>).flatMap(([code, rows]) => rows.map((r) => ({ code, ...r }))), () => ['code', ...bar])
  })

  it('kline-full (streamed) and market-kline (the stored day streamed)', async () => {
    const { csv } = await expectCsvOf('/v1/kline-full?code=sh600519', (b) => b.data)
    expect(csv.text.split('\r\n').length).toBeGreaterThan(2400)
    await expectCsvOf('/v1/kline-full?code=sh600519&fq=hfq&start=2020-01-01&end=2020-12-31', (b) => b.data)
    await expectCsvOf('/v1/market-kline', (b) => b.data)
  })

  it('trade-calendar and screen: the rows of `structured`, in the table’s column order', async () => {
    await expectCsvOf('/v1/trade-calendar?year=2026', (b) => b.structured, () => ['date', 'is_trading_day', 'is_week_last', 'is_quarter_last', 'is_year_last', 'is_month_last'])
    await expectCsvOf('/v1/screen?expr=' + encodeURIComponent('ClosePrice > 1') + '&orderby=PE_TTM&desc=false', (b) => b.structured, (b) => b.tables[0].columns)
  })

  it('technical and technical-batch: the 55 columns, one line per symbol that has a row', async () => {
    const { json } = await expectCsvOf('/v1/technical?code=sh600519', (b) => b.data)
    const columns = Object.keys(json.body.data[0])
    expect(columns).toHaveLength(55)
    const batch = await expectCsvOf('/v1/technical-batch?codes=sh600519,bad!,sh000001,sz000001', (b) => b.data.filter((i: any) => i.ok).map((i: any) => i.data), () => columns)
    expect(batch.json.body.failed).toBe(1)
  })

  it('hot, block-trade, ipo and dividend', async () => {
    await expectCsvOf('/v1/hot?limit=20', (b) => b.data)
    await expectCsvOf('/v1/block-trade', (b) => b.data)
    await expectCsvOf('/v1/ipo?days=90', (b) => b.data)
    await expectCsvOf('/v1/dividend?code=sh600519', (b) => b.data)
  })

  it('sectioned answers, one section at a time: fund, shareholder, calendar, finance', async () => {
    // rank=false: the rank walks the whole market list, which on a busy machine can outrun its budget in one
    // of the two calls and not the other (the rank is then null in one): this test is about the table, not the rank.
    for (const section of ['money_flow', 'margin']) await expectCsvOf(`/v1/fund?code=sh600519&rank=false&section=${section}`, (b) => b.data.data[section])
    for (const section of ['top10_holders', 'holder_count']) await expectCsvOf(`/v1/shareholder?code=sh600519&section=${section}`, (b) => b.data.data[section])
    const { json } = await pair('/v1/calendar?limit=50')
    const section = json.body.data.tables.find((t: any) => t.rows.length > 0).slug
    await expectCsvOf(`/v1/calendar?limit=50&section=${section}`, (b) => b.data.data[section])
    await expectCsvOf('/v1/finance?code=sh600519&section=balance', (b) => b.data[1])
  })

  it('quotes a cell that holds a comma, a quote or a line break, and writes Chinese names as UTF-8', async () => {
    const { csv } = await pair('/v1/hot?limit=20')
    const bytes = new TextEncoder().encode(csv.text)
    expect(new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes)).toBe(csv.text)
    expect(csv.text).toMatch(/[\u4e00-\u9fff]/)
    // fund's top_traders rows carry their seats as a list: one cell of JSON text, quoted.
    const fund = await pair('/v1/fund?code=sh600519&section=top_traders')
    const rows = fund.json.body.data.data.top_traders
    expect(rows.length).toBeGreaterThan(0)
    expect(fund.csv.text).toMatch(/,"\[\{""/)
    expectSameTable(fund.csv.text, rows, Object.keys(rows[0]))
  })
})

describe('asking for CSV', () => {
  it('Accept: text/csv answers CSV too; format=json wins over it; every answer says Vary: Accept', async () => {
    const viaAccept = await storeCall('/v1/kline?code=sh600519&count=3', { key, headers: { accept: 'text/csv' } })
    expect(viaAccept.headers.get('content-type')).toBe(CSV_TYPE)
    expect(viaAccept.headers.get('vary')).toMatch(/Accept/)
    const csv = await (await storeCall('/v1/kline?code=sh600519&count=3&format=csv', { key })).text()
    expect(await viaAccept.text()).toBe(csv)
    const forced = await storeCall('/v1/kline?code=sh600519&count=3&format=json', { key, headers: { accept: 'text/csv' } })
    expect(forced.headers.get('content-type')).toMatch(/application\/json/)
    expect(forced.headers.get('vary')).toMatch(/Accept/)
    const refused = await storeCall('/v1/kline?code=nope&format=csv', { key })
    expect(refused.status).toBe(422)
    expect(refused.headers.get('vary')).toMatch(/Accept/)
  })

  it('format=json and no preference answer the same JSON as before (only elapsed_ms differs)', async () => {
    const plain = await storeJson('/v1/kline?code=sh600519&count=30', { key })
    const json = await storeJson('/v1/kline?code=sh600519&count=30&format=json', { key, headers: { accept: '*/*' } })
    const strip = (t: string) => t.replace(/"elapsed_ms":\d+/, '')
    expect(strip(json.text)).toBe(strip(plain.text))
    expect(plain.headers.get('content-type')).toMatch(/application\/json/)
  })

  it('refuses an unknown format, and a sectioned CSV call without section=, with a 422 naming the field (not counted)', async () => {
    const k = await makeKey('pro')
    const bad = await storeJson('/v1/quote?code=sh600519&format=xml', { key: k })
    expect(bad.status).toBe(422)
    expect(bad.body.detail[0]).toMatchObject({ loc: ['query', 'format'], msg: 'format must be json or csv' })
    const sectionless = await storeJson('/v1/shareholder?code=sh600519&format=csv', { key: k })
    expect(sectionless.status).toBe(422)
    expect(sectionless.body.detail[0].loc).toEqual(['query', 'section'])
    expect(sectionless.body.detail[0].msg).toMatch(/top10_holders, top10_float_holders, holder_count/)
    const viaAccept = await storeJson('/v1/fund?code=sh600519', { key: k, headers: { accept: 'text/csv' } })
    expect(viaAccept.status).toBe(422)
    expect(viaAccept.body.detail[0].msg).toMatch(/money_flow, top_traders, block_trades, margin/)
    const unknown = await storeJson('/v1/finance?code=sh600519&format=csv&section=profit', { key: k })
    expect(unknown.status).toBe(422)
    expect(unknown.body.detail[0].loc).toEqual(['query', 'section'])
    expect((await usageOf(k)).endpoints).toEqual({})
  })

  it('answers an HK code’s own sections, and a 422 listing them for an A-share section (not counted)', async () => {
    const k = await makeKey('pro')
    const { json } = await pair('/v1/shareholder?code=hk00700', k)
    expect(json.body.ok).toBe(true)
    const wrong = await storeJson('/v1/shareholder?code=hk00700&format=csv&section=top10_holders', { key: k })
    expect(wrong.status).toBe(422)
    expect(wrong.body.detail[0].loc).toEqual(['query', 'section'])
    expect(wrong.body.detail[0].msg).toBe('this answer has no section top10_holders; it has shareholders, holder_distribution, institutional_holdings')
    const before = (await usageOf(k)).endpoints.shareholder
    await expectCsvOf('/v1/shareholder?code=hk00700&section=holder_distribution', (b) => b.data.data.holder_distribution)
    expect(before).toEqual({ units: 1, calls: 1 })
  })

  it('keeps errors JSON with their status: 401, 403, 422 and an ok:false answer (not counted)', async () => {
    const noKey = await storeCall('/v1/technical?code=sh600519&format=csv')
    expect(noKey.status).toBe(401)
    expect(noKey.headers.get('content-type')).toMatch(/application\/json/)
    expect((await noKey.json<any>()).code).toBe('KEY_REQUIRED')
    const trial = await storeCall('/v1/kline-full?code=sh600519&format=csv', { key: await makeKey('trial') })
    expect(trial.status).toBe(403)
    expect((await trial.json<any>()).code).toBe('TIER_TOO_LOW')
    const k = await makeKey('pro')
    // A stock whose history is not in the store: ok:false NO_DATA, still JSON, and refunded.
    const missing = await storeCall('/v1/kline-full?code=sh600000&format=csv', { key: k })
    expect(missing.status).toBe(200)
    expect(missing.headers.get('content-type')).toMatch(/application\/json/)
    expect(await missing.json<any>()).toMatchObject({ ok: false, code: 'NO_DATA' })
    const noDay = await storeCall('/v1/market-kline?date=2026-11-19&format=csv', { key: k })
    expect(await noDay.json<any>()).toMatchObject({ ok: false, code: 'NO_DATA' })
    expect((await usageOf(k)).endpoints).toEqual({})
  })
})

describe('CSV and the access pipeline', () => {
  it('counts a CSV call exactly as the JSON call: units, calls, heavy quota', async () => {
    for (const path of ['/v1/kline?code=sh600519,sz000001&count=5', '/v1/market-kline?date=2026-11-20', '/v1/technical-batch?codes=sh600519,sz000001,bad!', '/v1/shareholder?code=sh600519&section=holder_count']) {
      const [a, b] = [await makeKey('unlimited'), await makeKey('unlimited')]
      const json = await storeCall(path, { key: a })
      const csv = await storeCall(path + '&format=csv', { key: b })
      expect(json.headers.get('content-type')).toMatch(/json/)
      expect(csv.headers.get('content-type'), path).toBe(CSV_TYPE)
      await Promise.all([json.text(), csv.text()])
      const [ua, ub] = [await usageOf(a), await usageOf(b)]
      expect(ub.endpoints, path).toEqual(ua.endpoints)
      expect(ub.heavy, path).toEqual(ua.heavy)
      expect(Object.keys(ua.endpoints)).toHaveLength(1)
      expect(csv.headers.get('x-ratelimit-remaining')).toBe(json.headers.get('x-ratelimit-remaining'))
    }
  })

  it('anonymous cache: a JSON caller never gets CSV and a CSV caller never gets JSON, both served from one cached answer', async () => {
    const path = '/v1/quote?code=sz000001&count=3'
    const from = (ip: string, extra: Record<string, string> = {}) => storeCall(path, { headers: { 'cf-connecting-ip': ip, ...extra } })
    const first = await storeCall(path + '&format=csv', { headers: { 'cf-connecting-ip': '203.0.113.1' } })
    expect(first.headers.get('content-type')).toBe(CSV_TYPE)
    expect(first.headers.get('x-cache')).toBe('MISS')
    const csvText = await first.text()
    const json = await from('203.0.113.2')
    expect(json.headers.get('x-cache')).toBe('HIT')
    expect(json.headers.get('content-type')).toMatch(/application\/json/)
    expect(json.headers.get('vary')).toMatch(/Accept/)
    const body = await json.json<any>()
    expect(body).toMatchObject({ ok: true, cached: true })
    expectSameTable(csvText, body.data, Object.keys(body.data[0]))
    const again = await from('203.0.113.3', { accept: 'text/csv' })
    expect(again.headers.get('x-cache')).toBe('HIT')
    expect(again.headers.get('content-type')).toBe(CSV_TYPE)
    expect(await again.text()).toBe(csvText)
    const jsonAgain = await from('203.0.113.4', { accept: 'application/json' })
    expect(jsonAgain.headers.get('content-type')).toMatch(/application\/json/)
  })
})

describe('format means the same on every route', () => {
  const JSON_ONLY = 'format must be json: this route has no table, so no CSV form (format=csv is for the tabular routes, docs/api-guide.md "CSV")'

  it('a route without a table: format=csv, any other value but json, or format twice is a 422 naming format; so is an Accept that would pick CSV', async () => {
    const k = await makeKey('pro')
    for (const path of ['/v1/health', '/v1/status', '/v1/usage', '/v1/changedist', '/v1/market-overview?type=summary']) {
      const join = path.includes('?') ? '&' : '?'
      for (const format of ['csv', 'xml', '']) {
        const r = await storeJson(`${path}${join}format=${format}`, { key: k })
        expect(r.status, `${path} ${format}`).toBe(422)
        expect(r.body.detail).toEqual([{ type: 'enum', loc: ['query', 'format'], msg: JSON_ONLY, input: format }])
      }
      const twice = await storeJson(`${path}${join}format=json&format=json`, { key: k })
      expect(twice.status, path).toBe(422)
      expect(twice.body.detail[0]).toMatchObject({ loc: ['query', 'format'], msg: expect.stringContaining('given 2 times') })
      const accept = await storeJson(path, { key: k, headers: { accept: 'text/csv' } })
      expect(accept.status, path).toBe(422)
      expect(accept.body.detail[0]).toMatchObject({ loc: ['header', 'accept'], msg: `Accept asks for text/csv; ${JSON_ONLY}`, input: 'text/csv' })
    }
    // format=json, and the Accept headers that never pick CSV, answer as before.
    for (const [query, accept] of [['?format=json', 'text/csv'], ['', '*/*'], ['', 'text/html,application/xhtml+xml,*/*;q=0.8'], ['', 'application/json, text/csv;q=0.5'], ['', 'text/csv, application/json'], ['', 'text/csv, */*;q=0.1']]) {
      const r = await storeJson(`/v1/health${query}`, { headers: { accept } })
      expect(r.status, `${query} ${accept}`).toBe(200)
    }
    expect((await usageOf(k)).endpoints).toEqual({})
  })

  it('a tabular route: format twice is a 422 as well', async () => {
    const r = await storeJson('/v1/kline?code=sh600519&format=csv&format=csv', { key })
    expect(r.status).toBe(422)
    expect(r.body.detail[0]).toMatchObject({ loc: ['query', 'format'], msg: expect.stringContaining('given 2 times') })
  })

  it('/openapi.json declares format on every /v1 operation: json or csv on the tabular ones, json alone on the others', async () => {
    const doc = (await storeJson('/openapi.json')).body
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
      if (!path.startsWith('/v1/')) continue
      for (const [method, op] of Object.entries(ops)) {
        const tabular = Boolean(op.responses['200']?.content?.['text/csv'])
        expect(op.parameters?.find((p: any) => p.name === 'format')?.schema.enum, `${method} ${path}`).toEqual(tabular ? ['json', 'csv'] : ['json'])
        expect(op.responses['422'], `${method} ${path}`).toBeDefined()
      }
    }
  })
})

describe('/openapi.json and docs/api-guide.md', () => {
  it('declares text/csv beside application/json and the format parameter on every tabular endpoint; section on the sectioned ones', async () => {
    const doc = (await storeJson('/openapi.json')).body
    const tabular = ['quote', 'kline', 'kline-full', 'market-kline', 'trade-calendar', 'technical', 'technical-batch', 'screen', 'hot', 'block-trade', 'ipo', 'dividend', 'fund', 'shareholder', 'calendar', 'finance']
    for (const name of tabular) {
      const op = doc.paths[`/v1/${name}`].get
      expect(Object.keys(op.responses['200'].content), name).toEqual(['application/json', 'text/csv'])
      expect(op.parameters.find((p: any) => p.name === 'format')?.schema.enum, name).toEqual(['json', 'csv'])
      const sectioned = ['fund', 'shareholder', 'calendar', 'finance'].includes(name)
      expect(op.parameters.some((p: any) => p.name === 'section'), name).toBe(sectioned)
    }
    expect(Object.keys(doc.paths['/v1/search'].get.responses['200'].content)).toEqual(['application/json'])
  })

  it('is what the CSV list of docs/api-guide.md names', async () => {
    const doc = (await storeJson('/openapi.json')).body
    const declared = Object.entries(doc.paths as Record<string, any>).filter(([, ops]) => ops.get?.responses['200']?.content?.['text/csv']).map(([path]) => path)
    const block = apiGuide.split('<!-- csv:begin')[1].split('<!-- csv:end -->')[0]
    const listed = [...block.matchAll(/^\| `(\/v1\/[^`]+)` \|/gm)].map((m) => m[1])
    expect(listed.sort()).toEqual(declared.sort())
  })
})
