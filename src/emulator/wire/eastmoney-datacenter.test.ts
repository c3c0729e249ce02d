import { afterEach, describe, expect, it } from 'vitest'
import { createEmulatorFetch, resetEmulator, setClock, setFault } from '../control'
import { handleEastmoney } from './eastmoney'
import { parseFilter } from './eastmoney-datacenter'
import { fakeMarket } from './fake-market'

// 2025-07-01 15:30 Beijing: both of 贵州茅台's ex-dates (2024-06-19, 2025-06-26) have passed.
const NOW = Date.parse('2025-07-01T07:30:00Z')
const BASE = 'https://datacenter-web.eastmoney.com/api/data/v1/get?reportName=RPT_SHAREBONUS_DET&columns=ALL&sortColumns=EX_DIVIDEND_DATE&sortTypes=-1&pageSize=500&pageNumber=1'

async function get(url: string, now = NOW): Promise<any> {
  const u = new URL(url)
  const res = await handleEastmoney(u, new Request(u), fakeMarket, now)
  expect(res.status).toBe(200)
  return res.json()
}
const byCode = (code: string) => `${BASE}&filter=${encodeURIComponent(`(SECURITY_CODE="${code}")`)}`
const byDate = (date: string) => `${BASE}&filter=${encodeURIComponent(`(EX_DIVIDEND_DATE='${date}')`)}`

describe('eastmoney datacenter RPT_SHAREBONUS_DET', () => {
  it('lists a stock\'s actions newest first, per 10 shares, in the datacenter envelope', async () => {
    const body = await get(byCode('600519'))
    expect(body).toMatchObject({ success: true, message: 'ok', code: 0, result: { pages: 1, count: 2 } })
    expect(body.version).toMatch(/^[0-9a-f]{32}$/)
    const [latest, earlier] = body.result.data
    expect(latest).toMatchObject({
      SECUCODE: '600519.SH', SECURITY_CODE: '600519', SECURITY_NAME_ABBR: '贵州茅台', EX_DIVIDEND_DATE: '2025-06-26 00:00:00',
      EQUITY_RECORD_DATE: '2025-06-25 00:00:00', REPORT_DATE: '2024-12-31 00:00:00', ASSIGN_PROGRESS: '实施分配',
      PRETAX_BONUS_RMB: 276.73, BONUS_IT_RATIO: null, IMPL_PLAN_PROFILE: '10派276.73元(含税)',
    })
    expect(earlier).toMatchObject({ EX_DIVIDEND_DATE: '2024-06-19 00:00:00', PRETAX_BONUS_RMB: 308.76 })
  })

  it('shows each plan from its announcement on, at its stage then; dates only once implementation is announced', async () => {
    const at = async (beijingDate: string) => {
      const body = await get(byCode('600519'), Date.parse(`${beijingDate}T12:00:00+08:00`))
      return body.result.data.map((r: any) => [r.ASSIGN_PROGRESS, r.EQUITY_RECORD_DATE, r.EX_DIVIDEND_DATE, r.PAY_CASH_DATE])
    }
    const y2024 = ['实施分配', '2024-06-18 00:00:00', '2024-06-19 00:00:00', '2024-06-19 00:00:00']
    // The 2025 plan (ex 2025-06-26): proposed 75 days ahead, approved 30 days ahead, implementation announced 5 days before the record date.
    expect(await at('2025-04-01')).toEqual([y2024])
    // Sorted by ex-date descending: a plan without one comes last.
    expect(await at('2025-04-15')).toEqual([y2024, ['董事会预案', null, null, null]])
    expect(await at('2025-06-01')).toEqual([y2024, ['股东大会决议通过', null, null, null]])
    expect(await at('2025-06-24')).toEqual([['实施分配', '2025-06-25 00:00:00', '2025-06-26 00:00:00', '2025-06-26 00:00:00'], y2024])
  })

  it('prints bonus shares per 10 and the plan text', async () => {
    const [row] = (await get(byCode('830799'))).result.data
    expect(row).toMatchObject({ SECUCODE: '830799.BJ', PRETAX_BONUS_RMB: 5, BONUS_IT_RATIO: 3, IMPL_PLAN_PROFILE: '10送3派5元(含税)' })
  })

  it('lists every stock of one ex-date', async () => {
    const body = await get(byDate('2024-05-20'))
    expect(body.result.data.map((r: any) => r.SECUCODE)).toEqual(['830799.BJ'])
  })

  it('answers 9201 when nothing matches, and past the last page', async () => {
    const none = { version: null, result: null, success: false, message: '返回数据为空', code: 9201 }
    expect(await get(byDate('2024-05-21'))).toEqual(none)
    expect(await get(byCode('000001'))).toEqual(none)
    expect(await get(byCode('600519').replace('pageNumber=1', 'pageNumber=2'))).toEqual(none)
  })

  it('pages with pageSize and pageNumber', async () => {
    const p2 = await get(byCode('600519').replace('pageSize=500', 'pageSize=1').replace('pageNumber=1', 'pageNumber=2'))
    expect(p2.result).toMatchObject({ pages: 2, count: 2 })
    expect(p2.result.data.map((r: any) => r.EX_DIVIDEND_DATE)).toEqual(['2024-06-19 00:00:00'])
  })

  it('sends only the columns asked for, and sorts as asked', async () => {
    const body = await get(byCode('600519').replace('columns=ALL', 'columns=SECUCODE,EX_DIVIDEND_DATE').replace('sortTypes=-1', 'sortTypes=1'))
    expect(body.result.data).toEqual([
      { SECUCODE: '600519.SH', EX_DIVIDEND_DATE: '2024-06-19 00:00:00' },
      { SECUCODE: '600519.SH', EX_DIVIDEND_DATE: '2025-06-26 00:00:00' },
    ])
  })

  it('answers 9501 for an unknown report or a filter it cannot read', async () => {
    expect(await get(byCode('600519').replace('RPT_SHAREBONUS_DET', 'RPT_NOPE'))).toMatchObject({ success: false, code: 9501, result: null })
    expect(await get(`${BASE}&filter=SECURITY_CODE%3D600519`)).toMatchObject({ code: 9501 })
  })
})

describe('parseFilter', () => {
  it('reads parenthesised predicates with quoted or numeric values', () => {
    expect(parseFilter(`(SECURITY_CODE="600519")(EX_DIVIDEND_DATE>='2024-01-01')(TOTAL_SHARES>100)`)).toEqual([
      { column: 'SECURITY_CODE', op: '=', value: '600519' },
      { column: 'EX_DIVIDEND_DATE', op: '>=', value: '2024-01-01' },
      { column: 'TOTAL_SHARES', op: '>', value: '100' },
    ])
    expect(parseFilter('')).toEqual([])
    expect(parseFilter('(A in ("1","2"))')).toBeNull()
  })
})

describe('through the emulator fetch', () => {
  afterEach(() => resetEmulator())

  it('belongs to the eastmoney channel, so its faults apply', async () => {
    setClock(NOW)
    const emu = createEmulatorFetch(fakeMarket)
    setFault('eastmoney', { kind: 'empty', count: 1 })
    expect(await (await emu(byCode('600519'))).json()).toMatchObject({ code: 9201 })
    setFault('eastmoney', { kind: 'http', count: 1 })
    expect((await emu(byCode('600519'))).status).toBe(502)
    expect(await (await emu(byCode('600519'))).json()).toMatchObject({ code: 0 })
  })
})
