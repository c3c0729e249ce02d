import { describe, expect, it } from 'vitest'
import realAnswer from '../../../test/fixtures/eastmoney/sharebonus-det-rows.json'
import moutai from '../../../test/fixtures/eastmoney/sharebonus-600519-2026-08-21-page1.json'
import { parseSymbol } from '../../domain/symbols'
import { createEmulatorFetch, resetEmulator, setClock } from '../../emulator/control'
import { market } from '../../emulator/market'
import { failureKind, fakeContext } from '../testkit'
import { dividendPlansUrl, fetchDividendPlans, toPlan } from './dividend-plans'

const inst = (code: string) => parseSymbol(code)
const rows = realAnswer.result.data as Record<string, unknown>[]

describe('toPlan on a real page of 600519 (three of 28 plans, taken 2026-08-21; test/fixtures/eastmoney/SOURCE.md)', () => {
  it('reads the three latest cash dividends per share, with their dates; the tax note is 10 % of the cash where given', () => {
    const { result } = moutai
    // 28 plans, three a page: 10 pages.
    expect(result.pages).toBe(Math.ceil(result.count / result.data.length))
    const plans = result.data.map((r) => toPlan(r, inst('sh600519')))
    expect(plans.map((p) => [p.reportDate, p.cash, p.recordDate, p.exDate, p.noticeDate])).toEqual([
      ['2025-12-31', 28.02423, '2026-06-25', '2026-06-26', '2026-06-22'],
      ['2025-09-30', 23.957, '2025-12-18', '2025-12-19', '2025-12-11'],
      ['2024-12-31', 27.673, '2025-06-25', '2025-06-26', '2025-06-20'],
    ])
    // The columns asked leave out the plan's progress: no status, as the parser reads it.
    expect(plans.every((p) => p.status === null && p.bonusShares === 0)).toBe(true)
    for (const r of result.data) {
      const net = /扣税后([\d.]+)元/.exec(r.IMPL_PLAN_PROFILE)
      if (net) expect(Number(net[1])).toBeCloseTo(r.PRETAX_BONUS_RMB * 0.9, 6)
    }
  })
})

describe('toPlan on real rows', () => {
  it('reads an implemented cash dividend per share with its dates', () => {
    expect(toPlan(rows[0], inst('sh600675'))).toEqual({
      reportDate: '2025-12-31', planNoticeDate: '2026-03-25', noticeDate: '2026-07-28', cash: 0.0059, bonusShares: 0, transferShares: 0, bonusTransferShares: 0,
      recordDate: '2026-08-03', exDate: '2026-08-04', payDate: null, status: 'implemented', statusText: '实施分配', profile: '10派0.059元(含税,扣税后0.0531元)',
    })
  })

  it('keeps bonus and transferred shares apart (10送2转3), without SECUCODE', () => {
    expect(toPlan(rows[1], inst('sz002998'))).toMatchObject({ cash: 0.15, bonusShares: 0.2, transferShares: 0.3, bonusTransferShares: 0.5, exDate: '2026-08-03' })
  })

  it('reads a board proposal with no dates yet', () => {
    expect(toPlan(rows[2], inst('sz000001'))).toMatchObject({ cash: 0.246, status: 'proposed', recordDate: null, exDate: null, payDate: null })
  })
})

describe('toPlan refuses what does not add up', () => {
  it.each([
    ['another stock', rows[0], 'sh600676'],
    ['a SECUCODE of another market', { ...rows[0], SECUCODE: '600675.SZ' }, 'sh600675'],
    ['no report date', { ...rows[0], REPORT_DATE: null }, 'sh600675'],
    ['a record date on the ex-date', { ...rows[0], EQUITY_RECORD_DATE: '2026-08-04 00:00:00' }, 'sh600675'],
    ['a payment before the record date', { ...rows[0], PAY_CASH_DATE: '2026-08-01 00:00:00' }, 'sh600675'],
    ['parts that do not make the sum', { ...rows[1], BONUS_IT_RATIO: 4 }, 'sz002998'],
    ['a negative amount', { ...rows[0], PRETAX_BONUS_RMB: -1 }, 'sh600675'],
    ['a date that is not one', { ...rows[0], EX_DIVIDEND_DATE: '2026-02-30 00:00:00' }, 'sh600675'],
  ])('%s', (_why, row, code) => {
    expect(failureKind(() => toPlan(row as Record<string, unknown>, inst(code)))).toBe('malformed')
  })

  it('keeps an unknown stage as text with a null status', () => {
    expect(toPlan({ ...rows[0], ASSIGN_PROGRESS: '某新进度' }, inst('sh600675'))).toMatchObject({ status: null, statusText: '某新进度' })
  })
})

describe('fetchDividendPlans', () => {
  it('asks for one stock by SECURITY_CODE', () => {
    expect(new URL(dividendPlansUrl(inst('sh600519'), 1)).searchParams.get('filter')).toBe('(SECURITY_CODE="600519")')
  })

  it("reads the emulator's answer newest first, a pending plan ahead of the implemented ones", async () => {
    resetEmulator()
    setClock(Date.parse('2025-06-01T12:00:00+08:00'))
    const plans = await fetchDividendPlans({ fetch: createEmulatorFetch(market), timeoutMs: 1000 }, inst('sh600519'))
    expect(plans.length).toBeGreaterThan(1)
    expect(plans[0]).toMatchObject({ status: 'approved', exDate: null })
    for (const p of plans.slice(1)) expect(p).toMatchObject({ status: 'implemented', exDate: expect.any(String) })
    resetEmulator()
  })

  it('is [] when the datacenter has no rows', async () => {
    const { ctx } = fakeContext(() => ({ body: '{"version":null,"result":null,"success":false,"message":"返回数据为空","code":9201}' }))
    expect(await fetchDividendPlans(ctx, inst('sh600519'))).toEqual([])
  })
})
