import { describe, expect, it } from 'vitest'
import { createEmulatorFetch, resetEmulator, setClock } from '../../emulator/control'
import { market } from '../../emulator/market'
import captured300124 from '../../../test/fixtures/eastmoney/valueanalysis-300124-2023-05-24.json'
import moutaiWeek from '../../../test/fixtures/eastmoney/valueanalysis-600519-2026-08-17-21.json'
import capturedIndustry from '../../../test/fixtures/eastmoney/valueindustry-016001-2017-01.json'
import { failureKind, fakeContext } from '../testkit'
import { fetchBoardDividendYield, fetchBoardHistory, fetchStockBoard, findBoard, toBoard, toBoardDay, toConstituent } from './sector-valuation'

/**
 * A row in the report's shape: columns and types as wisecon (stock/valuation/industry.py) lists
 * them and a public Go loader types them (ORIGINALCODE and BOARD_CODE strings, NUM and LOSS_COUNT
 * integers); values written for the test, not captured.
 */
const ROW = {
  BOARD_NAME: '酿酒行业', BOARD_CODE: '016029', ORIGINALCODE: '477', TRADE_DATE: '2026-10-21 00:00:00',
  PE_TTM: 21.5318, PE_LAR: 23.02, PB_MRQ: 4.8812, PCF_OCF_TTM: 18.07, PS_TTM: 7.4411, PEG_CAR: 1.73,
  TOTAL_MARKET_CAP: 4.1e12, MARKET_CAP_VAG: 2.3e10, NOTLIMITED_MARKETCAP_A: 3.9e12, NOMARKETCAP_A_VAG: 2.2e10,
  TOTAL_SHARES: 6.1e10, TOTAL_SHARES_VAG: 3.4e8, FREE_SHARES_VAG: 3.1e8, NUM: 178, LOSS_COUNT: 9,
}
const EMPTY = '{"version":null,"result":null,"success":false,"message":"返回数据为空","code":9201}'
const answer = (rows: unknown[]) => JSON.stringify({ version: 'x', result: { pages: 1, data: rows, count: rows.length }, success: true, message: 'ok', code: 0 })

describe('toBoard and toBoardDay', () => {
  it('reads the board, padding the BK number to four digits, and the day', () => {
    expect(toBoard(ROW)).toEqual({ boardCode: '016029', bk: '0477', name: '酿酒行业' })
    expect(toBoard({ ...ROW, ORIGINALCODE: 1036 })).toMatchObject({ bk: '1036' })
    expect(toBoardDay(ROW, '016029')).toEqual({ date: '2026-10-21', count: 178, lossCount: 9, peTtm: 21.5318, peStatic: 23.02, pb: 4.8812, ps: 7.4411, pcf: 18.07 })
  })

  it('keeps a loss-making board negative and a missing ratio null', () => {
    expect(toBoardDay({ ...ROW, PE_TTM: -35.2, PCF_OCF_TTM: '-' }, '016029')).toMatchObject({ peTtm: -35.2, pcf: null })
  })

  it.each([
    ['another board', { ...ROW, BOARD_CODE: '016030' }],
    ['no date', { ...ROW, TRADE_DATE: null }],
    ['an impossible date', { ...ROW, TRADE_DATE: '2026-02-30 00:00:00' }],
    ['more loss-makers than members', { ...ROW, LOSS_COUNT: 200 }],
    ['a count that is not one', { ...ROW, NUM: 17.5 }],
    ['a negative PB', { ...ROW, PB_MRQ: -1 }],
    ['a ratio that is text', { ...ROW, PE_TTM: 'abc' }],
  ])('refuses %s', (_why, row) => {
    expect(failureKind(() => toBoardDay(row as Record<string, unknown>, '016029'))).toBe('malformed')
  })

  it.each([
    ['no BOARD_CODE', { ...ROW, BOARD_CODE: null }],
    ['a BK number of five digits', { ...ROW, ORIGINALCODE: '10360' }],
    ['no name', { ...ROW, BOARD_NAME: ' ' }],
  ])('toBoard refuses %s', (_why, row) => {
    expect(failureKind(() => toBoard(row as Record<string, unknown>))).toBe('malformed')
  })
})

describe('fetching', () => {
  it('asks the history of one board from a date, newest first, and returns it ascending', async () => {
    const older = { ...ROW, TRADE_DATE: '2026-10-20 00:00:00', PE_TTM: 21 }
    const { ctx, calls } = fakeContext(() => ({ body: answer([ROW, older]) }))
    const days = await fetchBoardHistory(ctx, '016029', '2021-10-22')
    expect(days.map((d) => d.date)).toEqual(['2026-10-20', '2026-10-21'])
    const url = new URL(calls[0].url)
    expect(url.searchParams.get('reportName')).toBe('RPT_VALUEINDUSTRY_DET')
    expect(url.searchParams.get('filter')).toBe(`(BOARD_CODE="016029")(TRADE_DATE>='2021-10-22')`)
    expect(url.searchParams.get('sortTypes')).toBe('-1')
  })

  it('refuses a history with a day twice, or before the start asked', async () => {
    const twice = fakeContext(() => ({ body: answer([ROW, ROW]) }))
    await expect(fetchBoardHistory(twice.ctx, '016029', '2021-10-22')).rejects.toMatchObject({ kind: 'malformed' })
    const early = fakeContext(() => ({ body: answer([ROW, { ...ROW, TRADE_DATE: '2020-01-02 00:00:00' }]) }))
    await expect(fetchBoardHistory(early.ctx, '016029', '2021-10-22')).rejects.toMatchObject({ kind: 'malformed' })
  })

  it('is empty for no rows: [] of history, `empty` for a stock, null for a board code not valued', async () => {
    const none = fakeContext(() => ({ body: EMPTY }))
    expect(await fetchBoardHistory(none.ctx, '016029', '2021-10-22')).toEqual([])
    await expect(fetchStockBoard(none.ctx, '600519', '2026-10-01')).rejects.toMatchObject({ kind: 'empty' })
  })

  it('finds a board by ORIGINALCODE, else in a scan of the latest rows of every board', async () => {
    const direct = fakeContext(() => ({ body: answer([ROW]) }))
    expect(await findBoard(direct.ctx, '0477', '2026-10-01')).toMatchObject({ boardCode: '016029', bk: '0477' })
    expect(new URL(direct.calls[0].url).searchParams.get('filter')).toBe(`(ORIGINALCODE="477")(TRADE_DATE>='2026-10-01')`)
    expect(direct.calls).toHaveLength(1)
    // The report writes the number another way: nothing by ORIGINALCODE, found in the scan.
    const scan = fakeContext((url) => ({ body: url.includes('ORIGINALCODE') ? EMPTY : answer([{ ...ROW, BOARD_CODE: '016030', ORIGINALCODE: '0475' }, { ...ROW, ORIGINALCODE: '0477' }]) }))
    expect(await findBoard(scan.ctx, '0477', '2026-10-01')).toMatchObject({ boardCode: '016029' })
    expect(await findBoard(scan.ctx, '0480', '2026-10-01')).toBeNull()
    const liar = fakeContext(() => ({ body: answer([{ ...ROW, ORIGINALCODE: '475' }]) }))
    await expect(findBoard(liar.ctx, '0477', '2026-10-01')).rejects.toMatchObject({ kind: 'malformed' })
  })

  it('refuses a stock row of another stock, and garbage', async () => {
    const wrong = fakeContext(() => ({ body: answer([{ ...ROW, SECURITY_CODE: '000001' }]) }))
    await expect(fetchStockBoard(wrong.ctx, '600519', '2026-10-01')).rejects.toMatchObject({ kind: 'malformed' })
    const junk = fakeContext(() => ({ body: '<html>busy</html>' }))
    await expect(fetchBoardHistory(junk.ctx, '016029', '2021-10-22')).rejects.toMatchObject({ kind: 'malformed' })
  })

  it("reads the emulator's board of a stock and finds the same board by its BK number", async () => {
    resetEmulator()
    setClock(Date.parse('2026-10-22T10:30:00+08:00'))
    const ctx = { fetch: createEmulatorFetch(market), timeoutMs: 30_000 }
    const b = await fetchStockBoard(ctx, '600519', '2026-10-01')
    expect(b).toMatchObject({ bk: '0477', name: '酿酒行业' })
    expect(await findBoard(ctx, '0477', '2026-10-01')).toEqual(b)
    resetEmulator()
  })
})

/** A constituent's valuation row (RPT_VALUEANALYSIS_DET columns as wisecon and akshare's stock_value_em read them). */
const STOCK = { SECUCODE: '600519.SH', SECURITY_CODE: '600519', TRADE_DATE: '2026-10-21 00:00:00', CLOSE_PRICE: 1500, TOTAL_SHARES: 1.2562e9, TOTAL_MARKET_CAP: 1.8843e12, BOARD_CODE: '016029', BOARD_NAME: '酿酒行业', ORIG_BOARD_CODE: '477' }
const bonus = (code: string, ex: string, cashPer10: number) => ({ SECUCODE: code, EX_DIVIDEND_DATE: `${ex} 00:00:00`, PRETAX_BONUS_RMB: cashPer10, ASSIGN_PROGRESS: '实施分配', SECURITY_NAME_ABBR: 'x' })

describe('dividend yield', () => {
  it('reads a constituent, refusing a cap that is not close × shares (another unit)', () => {
    expect(toConstituent(STOCK, '016029', '2026-10-21')).toEqual({ code: 'sh600519', shares: 1.2562e9, marketCap: 1.8843e12 })
    expect(failureKind(() => toConstituent({ ...STOCK, TOTAL_MARKET_CAP: 1.8843e8 }, '016029', '2026-10-21'))).toBe('malformed')
    expect(failureKind(() => toConstituent({ ...STOCK, BOARD_CODE: '016030' }, '016029', '2026-10-21'))).toBe('malformed')
    expect(failureKind(() => toConstituent(STOCK, '016029', '2026-10-20'))).toBe('malformed')
  })

  it("is the year's cash per share × shares over the cap, counting a repeated row once and other stocks not at all", async () => {
    const other = { ...STOCK, SECUCODE: '000858.SZ', SECURITY_CODE: '000858', CLOSE_PRICE: 100, TOTAL_SHARES: 1e9, TOTAL_MARKET_CAP: 1e11 }
    const { ctx, calls } = fakeContext((url) => ({
      body: url.includes('RPT_VALUEANALYSIS_DET')
        ? answer([STOCK, other])
        : answer([bonus('600519.SH', '2026-06-19', 276.73), bonus('600519.SH', '2026-06-19', 276.73), bonus('000858.SZ', '2025-11-01', 20), bonus('600036.SH', '2026-07-01', 20)]),
    }))
    const got = await fetchBoardDividendYield(ctx, '016029', '2026-10-21')
    const paid = 27.673 * 1.2562e9 + 2 * 1e9
    expect(got).toEqual({ value: Math.round((paid / (1.8843e12 + 1e11)) * 1e6) / 1e4, from: '2025-10-22', to: '2026-10-21', constituents: 2, payers: 2 })
    const dividendCall = calls.map((c) => new URL(c.url)).find((u) => u.searchParams.get('reportName') === 'RPT_SHAREBONUS_DET')!
    expect(dividendCall.searchParams.get('filter')).toBe(`(EX_DIVIDEND_DATE>='2025-10-22')(EX_DIVIDEND_DATE<='2026-10-21')`)
  })

  it('is `empty` when the board has no constituents that day', async () => {
    const { ctx } = fakeContext((url) => ({ body: url.includes('RPT_VALUEANALYSIS_DET') ? EMPTY : answer([]) }))
    await expect(fetchBoardDividendYield(ctx, '016029', '2026-10-21')).rejects.toMatchObject({ kind: 'empty' })
  })
})

describe('a captured RPT_VALUEANALYSIS_DET row (300124, 2023-05-24; test/fixtures/eastmoney/SOURCE.md)', () => {
  const row = captured300124.result.data[0]

  it("names the stock's board by BOARD_CODE and the BK number by ORIG_BOARD_CODE, not ORIGINALCODE", async () => {
    expect(row).not.toHaveProperty('ORIGINALCODE')
    expect(toBoard(row, 'ORIG_BOARD_CODE')).toEqual({ boardCode: '016022', bk: '0459', name: '电子元件' })
    expect(failureKind(() => toBoard(row))).toBe('malformed')
    const { ctx, calls } = fakeContext(() => ({ body: JSON.stringify(captured300124) }))
    expect(await fetchStockBoard(ctx, '300124', '2023-05-01')).toEqual({ boardCode: '016022', bk: '0459', name: '电子元件' })
    expect(new URL(calls[0].url).searchParams.get('reportName')).toBe('RPT_VALUEANALYSIS_DET')
  })

  it('is a constituent whose cap is close × total shares in CNY, to the fen', () => {
    expect(toConstituent(row, '016022', '2023-05-24')).toEqual({ code: 'sz300124', shares: 2661146676, marketCap: 160201029895.2 })
    expect(row.CLOSE_PRICE * row.TOTAL_SHARES).toBeCloseTo(row.TOTAL_MARKET_CAP, 1)
    expect(row.CLOSE_PRICE * row.FREE_SHARES_A).toBeCloseTo(row.NOTLIMITED_MARKETCAP_A, 1)
  })
})

describe('a captured RPT_VALUEANALYSIS_DET page (600519, 2026-08-17..21; test/fixtures/eastmoney/SOURCE.md)', () => {
  const { result } = moutaiWeek

  it('holds five sessions, newest first, whose caps are close × shares and whose ratios move with the close', () => {
    // 2096 sessions, five a page: 420 pages.
    expect(result.pages).toBe(Math.ceil(result.count / result.data.length))
    expect(result.data.map((r) => r.TRADE_DATE.slice(0, 10))).toEqual(['2026-08-21', '2026-08-20', '2026-08-19', '2026-08-18', '2026-08-17'])
    const [latest] = result.data
    for (const r of result.data) {
      expect(r.CLOSE_PRICE * r.TOTAL_SHARES).toBeCloseTo(r.TOTAL_MARKET_CAP, 1)
      // The same trailing earnings, book and sales all week: each ratio over the close is constant.
      for (const k of ['PE_TTM', 'PE_LAR', 'PB_MRQ', 'PS_TTM', 'PCF_OCF_TTM'] as const) expect(r[k] / r.CLOSE_PRICE).toBeCloseTo(latest[k] / latest.CLOSE_PRICE, 9)
    }
  })

  it('is read as a constituent once the row carries what the ALL form adds (SECUCODE, BOARD_CODE); without them it is refused', () => {
    const row = result.data[0]
    expect(failureKind(() => toConstituent(row, '016029', '2026-08-21'))).toBe('malformed')
    expect(toConstituent({ ...row, SECUCODE: '600519.SH', BOARD_CODE: '016029' }, '016029', '2026-08-21')).toEqual({ code: 'sh600519', shares: 1250081601, marketCap: 1591141364200.83 })
  })
})

describe('captured RPT_VALUEINDUSTRY_DET rows (航空机场, 2017-01-03/04; test/fixtures/eastmoney/SOURCE.md)', () => {
  it('reads the board and its days as the datacenter sent them', () => {
    const [first, second] = capturedIndustry
    expect(toBoard(first)).toEqual({ boardCode: '016001', bk: '0420', name: '航空机场' })
    expect(toBoardDay(first, '016001')).toEqual({
      date: '2017-01-03', count: 12, lossCount: 0, peTtm: 24.671569606612, peStatic: 22.523957895283, pb: 1.963420711594, ps: 2.114150376869, pcf: 7.55642159359,
    })
    expect(toBoardDay(second, '016001')).toMatchObject({ date: '2017-01-04', count: 12, peTtm: 24.86403260612 })
  })

  it("adds up: each average is the board's sum over NUM, and one day's earnings and book carry into the next", () => {
    for (const r of capturedIndustry) {
      expect(r.MARKET_CAP_VAG).toBeCloseTo(r.TOTAL_MARKET_CAP / r.NUM, 3)
      expect(r.NOMARKETCAP_A_VAG).toBeCloseTo(r.NOTLIMITED_MARKETCAP_A / r.NUM, 3)
      expect(r.TOTAL_SHARES_VAG).toBeCloseTo(r.TOTAL_SHARES / r.NUM, 4)
    }
    const [a, b] = capturedIndustry
    // Same earnings and book under both days' caps: the ratios move with the cap alone.
    expect(a.TOTAL_MARKET_CAP / a.PE_TTM / (b.TOTAL_MARKET_CAP / b.PE_TTM)).toBeCloseTo(1, 2)
    expect(a.TOTAL_MARKET_CAP / a.PB_MRQ / (b.TOTAL_MARKET_CAP / b.PB_MRQ)).toBeCloseTo(1, 2)
  })
})
