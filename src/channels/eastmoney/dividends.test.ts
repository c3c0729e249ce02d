import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ChannelError } from '../errors'
import { failureKind, fakeContext } from '../testkit'
import { dividendsUrl, fetchCorporateActions, toAction } from './dividends'

// The row of upstreams.md §5.2, and variations of it.
const MOUTAI_2024 = {
  SECUCODE: '600519.SH', SECURITY_CODE: '600519', SECURITY_NAME_ABBR: '贵州茅台', REPORT_DATE: '2024-12-31 00:00:00',
  PLAN_NOTICE_DATE: '2025-04-03 00:00:00', NOTICE_DATE: '2025-06-13 00:00:00', EQUITY_RECORD_DATE: '2025-06-18 00:00:00', EX_DIVIDEND_DATE: '2025-06-19 00:00:00',
  ASSIGN_PROGRESS: '实施分配', IMPL_PLAN_PROFILE: '10派276.73元(含税)', PRETAX_BONUS_RMB: 276.73, BONUS_IT_RATIO: null, BONUS_RATIO: null, IT_RATIO: null,
  DIVIDENT_RATIO: 0.0182, BASIC_EPS: 68.64, BVPS: 205.28, TOTAL_SHARES: 1256197800,
}
const MOUTAI_2023 = { ...MOUTAI_2024, REPORT_DATE: '2023-12-31 00:00:00', EX_DIVIDEND_DATE: '2024-06-19 00:00:00', PRETAX_BONUS_RMB: 308.76 }
const MOUTAI_PLAN = { ...MOUTAI_2024, REPORT_DATE: '2025-06-30 00:00:00', EQUITY_RECORD_DATE: null, EX_DIVIDEND_DATE: null, ASSIGN_PROGRESS: '股东大会决议通过', PRETAX_BONUS_RMB: 239.57 }
const AIRONG = { ...MOUTAI_2024, SECUCODE: '830799.BJ', SECURITY_CODE: '830799', EX_DIVIDEND_DATE: '2025-06-19 00:00:00', PRETAX_BONUS_RMB: 5, BONUS_IT_RATIO: 3 }

const ok = (rows: object[], pages = 1, count = rows.length) => JSON.stringify({ version: 'x', result: { pages, data: rows, count }, success: true, message: 'ok', code: 0 })
const EMPTY = '{"version":null,"result":null,"success":false,"message":"返回数据为空","code":9201}'

describe('dividendsUrl', () => {
  it('filters by security code or by ex-date, newest first, 500 a page', () => {
    expect(dividendsUrl({ code: 'sh600519' }, 1)).toBe(
      'https://datacenter-web.eastmoney.com/api/data/v1/get?reportName=RPT_SHAREBONUS_DET&columns=ALL&pageNumber=1&pageSize=500&sortColumns=EX_DIVIDEND_DATE&sortTypes=-1&filter=(SECURITY_CODE%3D%22600519%22)'
    )
    expect(new URL(dividendsUrl({ exDate: '2025-06-20' }, 2)).searchParams.get('filter')).toBe("(EX_DIVIDEND_DATE='2025-06-20')")
  })
})

describe('toAction', () => {
  it('divides per-10-share values by 10 and reads the market from SECUCODE', () => {
    expect(toAction(MOUTAI_2024)).toEqual({ code: 'sh600519', exDate: '2025-06-19', cash: 27.673, bonus: 0 })
    expect(toAction(AIRONG)).toEqual({ code: 'bj830799', exDate: '2025-06-19', cash: 0.5, bonus: 0.3 })
    expect(toAction({ ...MOUTAI_2024, SECUCODE: '000001.SZ', SECURITY_CODE: '000001' })?.code).toBe('sz000001')
  })

  it('keeps no float noise from the division', () => {
    expect(toAction({ ...MOUTAI_2024, PRETAX_BONUS_RMB: 1.1, BONUS_IT_RATIO: 0.7 })).toMatchObject({ cash: 0.11, bonus: 0.07 })
  })

  it('adds bonus and transfer shares when the sum is missing', () => {
    expect(toAction({ ...MOUTAI_2024, PRETAX_BONUS_RMB: null, BONUS_IT_RATIO: null, BONUS_RATIO: 3, IT_RATIO: 2 })).toMatchObject({ cash: 0, bonus: 0.5 })
  })

  it('skips plans with no ex-date and rows that distribute nothing', () => {
    expect(toAction(MOUTAI_PLAN)).toBeNull()
    expect(toAction({ ...MOUTAI_2024, PRETAX_BONUS_RMB: null })).toBeNull()
  })

  it.each([
    ['no SECUCODE', { ...MOUTAI_2024, SECUCODE: undefined }],
    ['a SECUCODE of another market', { ...MOUTAI_2024, SECUCODE: '00700.HK' }],
    ['a SECURITY_CODE that disagrees', { ...MOUTAI_2024, SECURITY_CODE: '600520' }],
    ['an ex-date that is no date', { ...MOUTAI_2024, EX_DIVIDEND_DATE: '2025-02-30 00:00:00' }],
    ['a cash amount that is no number', { ...MOUTAI_2024, PRETAX_BONUS_RMB: '10派' }],
    ['a negative cash amount', { ...MOUTAI_2024, PRETAX_BONUS_RMB: -1 }],
  ])('refuses %s', (_why, row) => {
    expect(failureKind(() => toAction(row))).toBe('malformed')
  })

  it('throws nothing but ChannelError on random rows', () => {
    const cell = fc.oneof(fc.double(), fc.integer(), fc.string(), fc.constantFrom('600519.SH', '2025-06-19 00:00:00', '600519'), fc.constant(null))
    const row = fc.dictionary(fc.constantFrom('SECUCODE', 'SECURITY_CODE', 'EX_DIVIDEND_DATE', 'PRETAX_BONUS_RMB', 'BONUS_IT_RATIO', 'BONUS_RATIO', 'IT_RATIO'), cell)
    fc.assert(
      fc.property(row, (r) => {
        try {
          toAction(r)
        } catch (e) {
          expect(e).toBeInstanceOf(ChannelError)
        }
      })
    )
  })
})

describe('fetchCorporateActions', () => {
  it('returns a stock\'s implemented actions ascending by ex-date', async () => {
    const fake = fakeContext(() => ({ body: ok([MOUTAI_PLAN, MOUTAI_2024, MOUTAI_2023]) }))
    expect(await fetchCorporateActions(fake.ctx, { code: 'sh600519' })).toEqual([
      { code: 'sh600519', exDate: '2024-06-19', cash: 30.876, bonus: 0 },
      { code: 'sh600519', exDate: '2025-06-19', cash: 27.673, bonus: 0 },
    ])
  })

  it('returns every stock of an ex-date, by code, across pages', async () => {
    const fake = fakeContext((url) => ({ body: url.includes('pageNumber=1&') ? ok([MOUTAI_2024], 2, 2) : ok([AIRONG], 2, 2) }))
    const actions = await fetchCorporateActions(fake.ctx, { exDate: '2025-06-19' })
    expect(actions.map((a) => a.code)).toEqual(['bj830799', 'sh600519'])
    expect(fake.calls).toHaveLength(2)
  })

  it('answers [] to code 9201', async () => {
    expect(await fetchCorporateActions(fakeContext(() => ({ body: EMPTY })).ctx, { exDate: '2025-06-21' })).toEqual([])
  })

  it('sums two plans on one ex-date, and keeps an exact repeat once', async () => {
    const special = { ...MOUTAI_2024, PRETAX_BONUS_RMB: 10, BONUS_IT_RATIO: 2 }
    const fake = fakeContext(() => ({ body: ok([MOUTAI_2024, special, MOUTAI_2024]) }))
    expect(await fetchCorporateActions(fake.ctx, { code: 'sh600519' })).toEqual([{ code: 'sh600519', exDate: '2025-06-19', cash: 28.673, bonus: 0.2 }])
  })

  it.each([
    ['another stock', { code: 'sh600519' }, AIRONG],
    ['the same digits on another exchange', { code: 'sz600519' }, MOUTAI_2024],
    ['another ex-date', { exDate: '2025-06-20' }, MOUTAI_2024],
  ] as const)('refuses a row of %s as malformed', async (_why, query, row) => {
    const fake = fakeContext(() => ({ body: ok([row]) }))
    await expect(fetchCorporateActions(fake.ctx, query)).rejects.toMatchObject({ kind: 'malformed' })
  })

  it('refuses what is not an A-share stock or a date without calling out', async () => {
    const fake = fakeContext(() => ({ body: EMPTY }))
    await expect(fetchCorporateActions(fake.ctx, { code: 'hk00700' })).rejects.toMatchObject({ kind: 'unsupported' })
    await expect(fetchCorporateActions(fake.ctx, { exDate: '2025-6-1' })).rejects.toMatchObject({ kind: 'unsupported' })
    expect(fake.calls).toHaveLength(0)
  })
})
