import { afterEach, describe, expect, it } from 'vitest'
import real from '../../../test/fixtures/eastmoney/lico-fn-cpd-301381-2025-05-26.json'
import { createEmulatorFetch, setClock } from '../../emulator/control'
import { market } from '../../emulator/market'
import { bookValuePerShare, financialReport, financialReports, hasFundamentals } from '../../emulator/market/fundamentals'
import { readDatacenter } from './datacenter'
import type { JsonObject } from './envelope'
import { fetchPeriodPerformance, parsePeriodPerformance, performanceUrl } from './period-performance'
import { failureKind } from '../testkit'

const ROWS = real.result.data as JsonObject[]
const [Q1_2025, Y2024, Q3_2024, H1_2024] = real.result.data

describe('the real capture (301381 赛维时代, asked 2025-05-26; test/fixtures/eastmoney/SOURCE.md)', () => {
  // The shares behind the EPS: the annual row's profit over its EPS (the listed 400.11 million).
  const shares = Y2024.PARENT_NETPROFIT / Y2024.BASIC_EPS

  it('adds up: every row\'s EPS is its profit over the same shares, to the 4 decimals sent', () => {
    expect(shares).toBeGreaterThan(400.0e6)
    expect(shares).toBeLessThan(400.2e6)
    for (const r of real.result.data) expect(Math.abs(r.PARENT_NETPROFIT / shares - r.BASIC_EPS), r.REPORTDATE).toBeLessThan(0.00005)
  })

  it('adds up: the weighted ROE is the profit over the mean parent equity (BPS × shares) of the year\'s start and the period end', () => {
    // Q1 2025 opens on the 2024 year end; the year 2024 opened on 2023's (BPS 6.034557976656, a row of the same answer not kept).
    const roe = (profit: number, open: number, end: number) => (profit / (((open + end) / 2) * shares)) * 100
    expect(roe(Q1_2025.PARENT_NETPROFIT, Y2024.BPS, Q1_2025.BPS)).toBeCloseTo(Q1_2025.WEIGHTAVG_ROE, 1)
    expect(roe(Y2024.PARENT_NETPROFIT, 6.034557976656, Y2024.BPS)).toBeCloseTo(Y2024.WEIGHTAVG_ROE, 0)
    // And the gross margin is not a ratio of the columns sent, but a percent: 43.89 %.
    expect(Q1_2025.XSMLL).toBeGreaterThan(1)
  })

  it('has the 37 columns the emulator writes, in the same order', async () => {
    setClock(Date.parse('2026-11-20T16:00:00+08:00'))
    try {
      const fetch = createEmulatorFetch(market)
      const res = await fetch(performanceUrl('2026-06-30', 1))
      const page = readDatacenter(await res.text())!
      expect(Object.keys(Q1_2025)).toHaveLength(37)
      for (const row of page.data.slice(0, 20)) expect(Object.keys(row)).toEqual(Object.keys(Q1_2025))
    } finally {
      setClock(null)
    }
  }, 60_000) // the first page of a period ranks the whole market's fundamentals: seconds of CPU

  it('is read per period: BPS, first notice and last update (the annual row re-dated by nothing; Q1 2025 published with it)', () => {
    expect(parsePeriodPerformance([Q1_2025] as JsonObject[], '2025-03-31').get('sz301381')).toEqual({ notice: '2025-04-26', updated: '2025-04-26', bps: 6.324493712297, shares: 47026149.99 / 0.1175 })
    expect(parsePeriodPerformance([H1_2024] as JsonObject[], '2024-06-30').get('sz301381')).toEqual({ notice: '2024-08-24', updated: '2024-08-24', bps: 6.385260031642, shares: 235585901.56 / 0.5888 })
    // Every kept row's share basis is the company's 400.1 million within the EPS's rounding.
    for (const r of real.result.data) expect(Math.abs(parsePeriodPerformance([r] as JsonObject[], r.REPORTDATE.slice(0, 10)).get('sz301381')!.shares! / 400.1e6 - 1)).toBeLessThan(0.001)
    expect(parsePeriodPerformance([Q3_2024] as JsonObject[], '2024-09-30').get('sz301381')?.bps).toBe(6.039643850337)
  })

  it('refuses a row of another period than asked', () => {
    expect(failureKind(() => parsePeriodPerformance(ROWS, '2025-03-31'))).toBe('malformed')
  })
})

describe('parsePeriodPerformance', () => {
  const row = { ...Q1_2025 } as JsonObject
  it.each([
    ['a notice date before the period ends', { NOTICE_DATE: '2025-03-01 00:00:00' }],
    ['no notice date', { NOTICE_DATE: null }],
    ['an update before the notice', { UPDATE_DATE: '2025-04-01 00:00:00' }],
    ['a code of no A-share exchange', { SECUCODE: '00700.HK' }],
    ['a BPS sent as text', { BPS: '6.32' }],
    ['an EPS of the other sign than the profit', { BASIC_EPS: -0.1175 }],
    ['a weighted ROE of the other sign than the profit, with positive equity', { WEIGHTAVG_ROE: -1.88 }],
  ])('refuses %s', (_, patch) => {
    expect(failureKind(() => parsePeriodPerformance([{ ...row, ...patch }], '2025-03-31'))).toBe('malformed')
  })

  it('refuses a stock listed twice, and keeps a BPS the row does not send as null', () => {
    expect(failureKind(() => parsePeriodPerformance([row, row], '2025-03-31'))).toBe('malformed')
    expect(parsePeriodPerformance([{ ...row, BPS: null }], '2025-03-31').get('sz301381')?.bps).toBeNull()
    // An EPS under 0.1 CNY, or none, says too little about the share count.
    expect(parsePeriodPerformance([{ ...row, BASIC_EPS: 0.05, PARENT_NETPROFIT: 2e7 }], '2025-03-31').get('sz301381')?.shares).toBeNull()
    expect(parsePeriodPerformance([{ ...row, BASIC_EPS: null }], '2025-03-31').get('sz301381')?.shares).toBeNull()
    // A restated row: first published 2024-04-27, re-dated 2025-04-26 (the capture's 2024-03-31 row).
    const restated = { ...row, REPORTDATE: '2024-03-31 00:00:00', NOTICE_DATE: '2024-04-27 00:00:00', UPDATE_DATE: '2025-04-26 00:00:00' }
    expect(parsePeriodPerformance([restated], '2024-03-31').get('sz301381')).toMatchObject({ notice: '2024-04-27', updated: '2025-04-26' })
  })
})

describe('fetchPeriodPerformance on the emulator', () => {
  afterEach(() => setClock(null))

  it('pages through the whole market for one period and agrees with the model and the quotes\' book value', async () => {
    const now = Date.parse('2026-11-20T16:00:00+08:00')
    setClock(now)
    const ctx = { fetch: createEmulatorFetch(market), timeoutMs: 30_000 }
    // The latest period published: its BPS is the book value per share the quotes' PB divides by.
    const moutai = market.byCode('sh600519')!
    const latest = financialReports(market, moutai, now, 1)[0].period
    const got = await fetchPeriodPerformance(ctx, latest)
    const published = market.instruments().filter((i) => hasFundamentals(i) && financialReport(market, i, latest, now))
    expect(got.size).toBe(published.length)
    expect(got.size).toBeGreaterThan(1000) // more than one 500-row page
    for (const code of ['sh600519', 'sz000001', 'bj830799']) {
      const inst = market.byCode(code)
      if (!inst) continue
      const r = financialReport(market, inst, latest, now)!
      expect(got.get(code), code).toMatchObject({ notice: r.noticeDate, updated: r.noticeDate })
      expect(got.get(code)!.bps, code).toBeCloseTo(r.balance.parentEquity / inst.totalShares!, 11)
    }
    expect(got.get('sh600519')!.bps!).toBeCloseTo(bookValuePerShare(market, moutai, '2026-11-20', now)!, 11)
  }, 60_000)

  it('writes rows that add up as the real ones do', async () => {
    const now = Date.parse('2026-11-20T16:00:00+08:00')
    setClock(now)
    const fetch = createEmulatorFetch(market)
    const page = readDatacenter(await (await fetch(performanceUrl('2025-12-31', 1))).text())!
    for (const r of page.data.slice(0, 50) as Array<Record<string, any>>) {
      const inst = market.byCode(r.SECUCODE.slice(7).toLowerCase() + r.SECURITY_CODE)!
      expect(Math.abs(r.PARENT_NETPROFIT / inst.totalShares! - r.BASIC_EPS), r.SECUCODE).toBeLessThanOrEqual(0.00005)
      expect(r.UPDATE_DATE).toBe(r.NOTICE_DATE)
      expect(r.DEDUCT_BASIC_EPS).not.toBeNull() // an annual report's
      expect(r.QDATE).toBe('2025Q4')
      expect(r.DATATYPE).toBe('2025年 年报')
      if (r.WEIGHTAVG_ROE !== null && r.PARENT_NETPROFIT !== 0) expect(Math.sign(r.WEIGHTAVG_ROE)).toBe(Math.sign(r.PARENT_NETPROFIT))
    }
    expect(parsePeriodPerformance(page.data, '2025-12-31').size).toBe(page.data.length)
  })

  it('is an empty map for a period nobody has published', async () => {
    setClock(Date.parse('2026-11-20T16:00:00+08:00'))
    const ctx = { fetch: createEmulatorFetch(market), timeoutMs: 10_000 }
    expect((await fetchPeriodPerformance(ctx, '2027-03-31')).size).toBe(0)
  })
})
