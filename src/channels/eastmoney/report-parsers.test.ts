import margin000001 from '../../../test/fixtures/eastmoney/margin-000001-2024-01-05.json'
import margin300124 from '../../../test/fixtures/eastmoney/margin-300124-2023-05-23.json'
import seats600127 from '../../../test/fixtures/eastmoney/billboard-seats-600127-2026-09-04.json'
import seats600611 from '../../../test/fixtures/eastmoney/billboard-seats-buy-600611-2024-07-16.json'
import board000595 from '../../../test/fixtures/eastmoney/billboard-000595-2024-01-02.json'
import boardWeek from '../../../test/fixtures/eastmoney/billboard-a-2026-08-17-21-page1.json'
import blockDay from '../../../test/fixtures/eastmoney/blocktrade-sz-2026-09-29-all-page1.json'
import blockWeek from '../../../test/fixtures/eastmoney/blocktrade-a-2026-08-17-21-page1.json'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { previousTradingDay } from '../../domain/trading-calendar'
import { clearFaults, createEmulatorFetch, setClock, setFault } from '../../emulator/control'
import { market } from '../../emulator/market'
import { listings } from '../../emulator/market/billboard'
import { hasBlockTrades } from '../../emulator/market/block-trades'
import type { ChannelContext } from '../types'
import { boardDays, fetchBoardDays } from './billboard'
import { blockTradeFilter, fetchBlockTrades, toBlockTrade } from './block-trades'
import { fetchMargin, toMarginDay } from './margin'

const ctx: ChannelContext = { fetch: createEmulatorFetch(market), timeoutMs: 20_000 }
const NOW = Date.parse('2026-11-20T18:00:00+08:00')

beforeAll(() => setClock(NOW))
afterAll(() => {
  setClock(null)
  clearFaults()
})

const BLOCK_ROW = {
  TRADE_DATE: '2025-01-02 00:00:00', SECURITY_CODE: '600519', SECUCODE: '600519.SH', SECURITY_NAME_ABBR: '贵州茅台', CHANGE_RATE: 0.76, CLOSE_PRICE: 1520,
  DEAL_PRICE: 1398.4, PREMIUM_RATIO: -8, DEAL_VOLUME: 2000, DEAL_AMT: 2796800, TURNOVER_RATE: 0.0001, BUYER_NAME: '机构专用', SELLER_NAME: '中信证券股份有限公司上海分公司',
}

describe('margin (RPTA_WEB_RZRQ_GGMX)', () => {
  it('reads a recorded row', () => {
    expect(toMarginDay(margin000001.result.data[0], 'sz000001')).toEqual({
      date: '2024-01-05', financingBalance: 5105063089, financingBuy: 266715372, financingRepay: 325760031, financingNetBuy: -59044659,
      lendingBalance: 106309509, lentShares: null, lentSold: 564400, lentRepaid: 201500, totalBalance: 5211372598, close: 9.27,
    })
  })

  it('reads a second real row (300124, 2023-05-23), whose sums and short position add up', () => {
    const r = margin300124
    // Short balance = shares lent out × close; net short = sold − repaid; RZRQYECZ = financing − lending.
    expect(r.RQYL * r.SPJ).toBeCloseTo(r.RQYE, -1)
    expect(r.RQMCL - r.RQCHL).toBe(r.RQJMG)
    expect(r.RZYE - r.RQYE).toBe(r.RZRQYECZ)
    expect(toMarginDay(r, 'sz300124')).toEqual({
      date: '2023-05-23', financingBalance: 683707523, financingBuy: 25179369, financingRepay: 43804188, financingNetBuy: -18624819,
      lendingBalance: 228942235, lentShares: 3780420, lentSold: 27300, lentRepaid: 33200, totalBalance: 912649758, close: 60.56,
    })
  })

  it('rejects a row of another stock or whose sums do not add up', () => {
    const row = margin000001.result.data[0]
    expect(() => toMarginDay(row, 'sz000002')).toThrow(/does not answer/)
    expect(() => toMarginDay({ ...row, RZJME: 1 }, 'sz000001')).toThrow(/buy − repay/)
    expect(() => toMarginDay({ ...row, RZRQYE: 1 }, 'sz000001')).toThrow(/financing \+ lending/)
    expect(() => toMarginDay({ ...row, DATE: '2024-13-05' }, 'sz000001')).toThrow(/not a date/)
  })

  it('reads the emulator\'s rows, newest first, balances carried day to day', async () => {
    const days = await fetchMargin(ctx, 'sh600519', '2026-10-01')
    expect(days.length).toBeGreaterThan(20)
    expect(days[0].date).toBe('2026-11-19')
    for (let i = 0; i + 1 < days.length; i++) {
      expect(days[i].financingBalance).toBeCloseTo(days[i + 1].financingBalance + days[i].financingBuy - days[i].financingRepay, 0)
    }
  })
})

describe('dragon-tiger board', () => {
  it('reads a recorded listing row (no seats asked)', () => {
    const [day] = boardDays('sz000595', board000595.result.data, [], [])
    expect(day).toMatchObject({ date: '2024-01-02', reasons: ['连续三个交易日内，涨幅偏离值累计达到20%的证券'], close: 5.7, buyAmount: 79387344, netAmount: 38341402.3, dayAmount: null })
  })

  it('reads a recorded page of the week 2026-08-17..21 (3 of 375 rows), whose sums and ratios add up', () => {
    // test/fixtures/eastmoney/SOURCE.md: 375 listings, three a page: 125 pages; taken Saturday 2026-08-22.
    const { result } = boardWeek
    expect(result.pages).toBe(Math.ceil(result.count / result.data.length))
    const [day] = boardDays('sz000017', [result.data[0]], [], [])
    expect(day).toMatchObject({ date: '2026-08-21', reasons: ['连续三个交易日内，涨幅偏离值累计达到20%的证券'], close: 7.11, buyAmount: 104887598.01, netAmount: 4599091.67 })
    for (const row of result.data) {
      expect(boardDays(`sz${row.SECURITY_CODE}`, [row], [], [])).toHaveLength(1)
      expect(row.BILLBOARD_NET_AMT).toBeCloseTo(row.BILLBOARD_BUY_AMT - row.BILLBOARD_SELL_AMT, 2)
      expect(row.BILLBOARD_DEAL_AMT).toBeCloseTo(row.BILLBOARD_BUY_AMT + row.BILLBOARD_SELL_AMT, 2)
      // Both ratios are percent of the day's turnover (ACCUM_AMOUNT).
      expect(row.DEAL_NET_RATIO).toBeCloseTo((row.BILLBOARD_NET_AMT / row.ACCUM_AMOUNT) * 100, 9)
      expect(row.DEAL_AMOUNT_RATIO).toBeCloseTo((row.BILLBOARD_DEAL_AMT / row.ACCUM_AMOUNT) * 100, 9)
    }
    // Later changes exist only for sessions that have been: none yet for the Friday listings, D1 and D2 for 2026-08-19's.
    expect(result.data.map((r) => [r.TRADE_DATE.slice(0, 10), r.D1_CLOSE_ADJCHRATE, r.D2_CLOSE_ADJCHRATE, r.D5_CLOSE_ADJCHRATE])).toEqual([
      ['2026-08-21', null, null, null],
      ['2026-08-19', -9.97088792, -14.55604076, null],
      ['2026-08-21', null, null, null],
    ])
  })

  it('rejects a net that is not buy − sell, another stock, and a seat on a day not listed', () => {
    const row = board000595.result.data[0]
    expect(() => boardDays('sz000595', [{ ...row, BILLBOARD_NET_AMT: 1 }], [], [])).toThrow(/buy/)
    expect(() => boardDays('sz000001', [row], [], [])).toThrow(/does not answer/)
    const seat = { TRADE_DATE: '2024-01-03 00:00:00', SECURITY_CODE: '000595', OPERATEDEPT_NAME: '机构专用', BUY: 1, SELL: 0, NET: 1 }
    expect(() => boardDays('sz000595', [row], [seat], [])).toThrow(/not listed/)
  })

  it('joins the emulator\'s listings with their seats', async () => {
    const stock = market.instruments().find((i) => i.kind === 'stock' && i.listDate < '2025-01-01' && market.dailyBars(i, '2025-11-20', '2026-11-20', NOW).some((b) => listings(i, b).length > 0))!
    const days = await fetchBoardDays(ctx, stock.code, '2025-11-20')
    expect(days.length).toBeGreaterThan(0)
    for (const d of days) {
      expect(d.buyers).toHaveLength(5)
      expect(d.sellers).toHaveLength(5)
      expect(d.buyAmount).toBeCloseTo([...d.buyers, ...d.sellers].reduce((s, x) => s + x.buy, 0), 0)
    }
  })

  it('the emulator\'s seat rows carry exactly the real columns, in their forms', async () => {
    const real = Object.keys(seats600127.RPT_BILLBOARD_DAILYDETAILSBUY)
    const stock = market.instruments().find((i) => i.kind === 'stock' && i.listDate < '2025-01-01' && market.dailyBars(i, '2025-11-20', '2026-11-20', NOW).some((b) => listings(i, b).length > 0))!
    const url = (report: string) =>
      `https://datacenter-web.eastmoney.com/api/data/v1/get?reportName=${report}&columns=ALL&pageNumber=1&pageSize=500&sortColumns=TRADE_DATE&sortTypes=-1&filter=${encodeURIComponent(`(SECURITY_CODE="${stock.symbol}")(TRADE_DATE>='2025-11-20')`)}`
    for (const report of ['RPT_BILLBOARD_DAILYDETAILSBUY', 'RPT_BILLBOARD_DAILYDETAILSSELL']) {
      const rows: any[] = ((await (await ctx.fetch(url(report))).json()) as any).result.data
      expect(rows.length).toBeGreaterThan(0)
      for (const r of rows) {
        expect(Object.keys(r)).toEqual(real)
        expect(typeof r.TRADE_ID).toBe('number')
        for (const [side, ratio] of [['BUY', 'TOTAL_BUYRIO'], ['SELL', 'TOTAL_SELLRIO']]) {
          if (r[side] === null) expect(r[ratio]).toBeNull()
          else expect(r[ratio]).toBeCloseTo(r[side] / r.ACCUM_AMOUNT, 10)
        }
        expect(r.CHANGE_TYPE).toMatch(/^137001\d+$/)
      }
      // A day listed for two reasons lists its seats once per listing, each listing with its TRADE_ID.
      const ids = new Map<string, Set<number>>()
      for (const r of rows) ids.set(r.TRADE_DATE + r.EXPLANATION, (ids.get(r.TRADE_DATE + r.EXPLANATION) ?? new Set()).add(r.TRADE_ID))
      for (const set of ids.values()) expect(set.size).toBe(1)
      expect(ids.size).toBe(market.dailyBars(stock, '2025-11-20', '2026-11-20', NOW).reduce((n, b) => n + listings(stock, b).length, 0))
    }
  })
})

describe('block trades (RPT_DATA_BLOCKTRADE)', () => {
  it('computes the premium and checks the report\'s, in percent or as a fraction', () => {
    expect(toBlockTrade(BLOCK_ROW)).toMatchObject({ code: 'sh600519', date: '2025-01-02', premiumPct: -8, volume: 2000, amount: 2796800, buyer: '机构专用' })
    expect(toBlockTrade({ ...BLOCK_ROW, PREMIUM_RATIO: -0.08 }).premiumPct).toBe(-8)
    expect(() => toBlockTrade({ ...BLOCK_ROW, PREMIUM_RATIO: 3 })).toThrow(/PREMIUM_RATIO/)
    expect(() => toBlockTrade({ ...BLOCK_ROW, DEAL_AMT: 27968 })).toThrow(/price/)
    expect(() => toBlockTrade({ ...BLOCK_ROW, SECURITY_CODE: '000001' })).toThrow(/disagrees/)
  })

  it('reads a recorded page (2026-08-17..21, three rows a page), whose amounts, premiums and later changes add up', () => {
    const { result } = blockWeek
    // 443 trades in the week, three a page: 148 pages.
    expect(result.pages).toBe(Math.ceil(result.count / result.data.length))
    const trades = result.data.map(toBlockTrade)
    expect(trades.map((t) => [t.code, t.date])).toEqual([['sz000007', '2026-08-18'], ['sz000534', '2026-08-17'], ['sz000810', '2026-08-20']])
    expect(trades[0]).toEqual({
      code: 'sz000007', name: '全新好', date: '2026-08-18', price: 11.68, close: 11.69, premiumPct: -0.0855, volume: 900_000, amount: 10_512_000,
      changePct: 9.9718, floatPct: 0.259556988928, buyer: '华鑫证券有限责任公司重庆江北嘴证券营业部', seller: '华鑫证券有限责任公司重庆江北嘴证券营业部',
    })
    for (const [k, row] of result.data.entries()) {
      // PREMIUM_RATIO is a fraction of the close, not percent.
      expect(row.PREMIUM_RATIO).toBeCloseTo(row.DEAL_PRICE / row.CLOSE_PRICE - 1, 9)
      expect(trades[k].premiumPct).toBeCloseTo(row.PREMIUM_RATIO * 100, 3)
      // The amount is price × volume to within 100 CNY (19414700 for 2063200 at 9.41).
      expect(Math.abs(row.DEAL_AMT - row.DEAL_PRICE * row.DEAL_VOLUME)).toBeLessThan(100)
      // The next session's close, 2 decimals: 11.69 → 10.99, 29.82 → 29.20, 9.41 → 9.42.
      const next = Math.round(row.CLOSE_PRICE * (1 + row.CHANGE_RATE_1DAYS / 100) * 100) / 100
      expect(Math.abs(next - row.CLOSE_PRICE * (1 + row.CHANGE_RATE_1DAYS / 100))).toBeLessThan(1e-6)
      // Taken on Saturday 2026-08-22: no 5-day change yet.
      expect(row.CHANGE_RATE_5DAYS).toBeNull()
    }
  })

  it('reads a recorded columns=ALL page of one day (2026-09-29, 30 of 111 rows), whose ratios all add up', () => {
    // test/fixtures/eastmoney/SOURCE.md: 111 trades, thirty a page: 4 pages; rows of Shenzhen stocks, a stock once per trade.
    const { result } = blockDay
    expect(result.pages).toBe(Math.ceil(result.count / result.data.length))
    const trades = result.data.map(toBlockTrade)
    expect(trades).toHaveLength(30)
    expect(trades.every((t) => t.date === '2026-09-29' && t.code.startsWith('sz'))).toBe(true)
    expect(trades[0]).toMatchObject({ code: 'sz002110', name: '三钢闽光', price: 2.87, close: 2.87, premiumPct: 0, volume: 3_434_900, amount: 9_858_200, buyer: '机构专用' })
    for (const [k, row] of result.data.entries()) {
      expect(row.PREMIUM_RATIO).toBeCloseTo(row.DEAL_PRICE / row.CLOSE_PRICE - 1, 9)
      expect(trades[k].premiumPct).toBeCloseTo(row.PREMIUM_RATIO * 100, 3)
      // Percent columns of the ALL form: the day's change, the deal against the previous close, the deal's share of the float.
      expect(row.CHANGE_RATE).toBeCloseTo((row.CLOSE_PRICE / row.PRE_CLOSE_PRICE - 1) * 100, 3)
      expect(row.DISCOUNT_RATIO).toBeCloseTo((row.DEAL_PRICE / row.PRE_CLOSE_PRICE - 1) * 100, 6)
      expect(row.FREE_SHARES_RATIO).toBeCloseTo((row.DEAL_VOLUME / row.UNLIMITED_A_SHARES) * 100, 6)
      expect(row.TURNOVER_RATE).toBeCloseTo((row.DEAL_AMT / (row.UNLIMITED_A_SHARES * row.CLOSE_PRICE)) * 100, 6)
      // Amounts in whole hundreds, within 0.05 % of price × volume (5762100 for 142100 at 40.54).
      expect(row.DEAL_AMT % 100).toBe(0)
      expect(Math.abs(row.DEAL_AMT / (row.DEAL_PRICE * row.DEAL_VOLUME) - 1)).toBeLessThan(5e-4)
      // Premium and discount turnovers split the amount by the premium's sign.
      expect(row.DISCOUNT_TURNOVER).toBe(row.PREMIUM_RATIO < 0 ? row.DEAL_AMT : 0)
      expect(row.PREMIUM_TURNOVER).toBe(row.PREMIUM_RATIO > 0 ? row.DEAL_AMT : 0)
      expect(row.SECURITY_TYPE_WEB).toBe('1')
      // Taken on 2026-09-30 at the earliest: the next session's change is there, no 5-day change yet.
      expect(row.CHANGE_RATE_1DAYS).not.toBeNull()
      expect(row.CHANGE_RATE_5DAYS).toBeNull()
    }
  })

  it('asks one stock over a range, or the whole market on one day', () => {
    expect(blockTradeFilter({ date: '2026-11-19' })).toBe("(SECURITY_TYPE_WEB=1)(TRADE_DATE>='2026-11-19')(TRADE_DATE<='2026-11-19')")
    expect(blockTradeFilter({ code: 'sz000001', from: '2026-01-01', to: '2026-11-19' })).toContain('(SECURITY_CODE="000001")')
    expect(() => blockTradeFilter({ code: 'hk00700', from: '2026-01-01', to: '2026-11-19' })).toThrow(/A-share/)
  })

  it('reads the emulator\'s whole-market day, and fails over to the mirror host', async () => {
    setFault('eastmoney', { kind: 'garbage', count: 1 })
    const trades = await fetchBlockTrades(ctx, { date: '2026-11-20' })
    const expected = market.instruments().filter((i) => i.kind === 'stock' && ['sh', 'sz', 'bj'].includes(i.prefix) && i.listDate <= '2026-11-20' && hasBlockTrades(i, '2026-11-20'))
    expect(new Set(trades.map((t) => t.code)).size).toBeGreaterThan(expected.length * 0.9)
    expect(trades.every((t) => t.date === '2026-11-20')).toBe(true)
    // Before 15:30 the day's list is not out yet: the previous session is the latest.
    setClock(Date.parse('2026-11-20T15:00:00+08:00'))
    expect(await fetchBlockTrades(ctx, { date: '2026-11-20' })).toEqual([])
    expect((await fetchBlockTrades(ctx, { date: previousTradingDay('2026-11-20') })).length).toBeGreaterThan(0)
    setClock(NOW)
  })
})

describe('real dragon-tiger seats (600127, 2026-09-04; test/fixtures/eastmoney/SOURCE.md)', () => {
  const buy = seats600127.RPT_BILLBOARD_DAILYDETAILSBUY
  const sell = seats600127.RPT_BILLBOARD_DAILYDETAILSSELL

  it('add up: the side not traded is null, and TOTAL_BUYRIO / TOTAL_SELLRIO are fractions of the day\'s turnover', () => {
    expect(buy.SELL).toBeNull()
    expect(sell.BUY).toBeNull()
    expect(buy.BUY / buy.ACCUM_AMOUNT).toBeCloseTo(buy.TOTAL_BUYRIO, 10)
    expect(sell.SELL / sell.ACCUM_AMOUNT).toBeCloseTo(sell.TOTAL_SELLRIO, 10)
    // One listing: both lists carry its TRADE_ID, a number.
    expect(buy.TRADE_ID).toBe(sell.TRADE_ID)
  })

  it('are read as seats of the listed day, a null side as 0', () => {
    // A listing row for the day (test scaffolding, not part of the capture): the seat reports alone do not list a day.
    const listing = { SECUCODE: '600127.SH', SECURITY_CODE: '600127', TRADE_DATE: '2026-09-04 00:00:00', EXPLANATION: buy.EXPLANATION, BILLBOARD_BUY_AMT: buy.BUY, BILLBOARD_SELL_AMT: sell.SELL, BILLBOARD_NET_AMT: buy.BUY - sell.SELL }
    const [day] = boardDays('sh600127', [listing], [buy], [sell])
    expect(day.buyers).toEqual([{ name: '东方财富证券股份有限公司山南香曲东路证券营业部', buy: 33075686.85, sell: 0, net: 33075686.85 }])
    expect(day.sellers).toEqual([{ name: '中信证券股份有限公司上海分公司', buy: 0, sell: 35149327.09, net: -35149327.09 }])
  })

  it('refuse a ratio in percent, and a seat of a reason the day was not listed for', () => {
    const listing = { SECUCODE: '600127.SH', SECURITY_CODE: '600127', TRADE_DATE: '2026-09-04 00:00:00', EXPLANATION: buy.EXPLANATION, BILLBOARD_BUY_AMT: buy.BUY, BILLBOARD_SELL_AMT: 0, BILLBOARD_NET_AMT: buy.BUY }
    expect(() => boardDays('sh600127', [listing], [{ ...buy, TOTAL_BUYRIO: buy.TOTAL_BUYRIO * 100 }], [])).toThrow(/TOTAL_BUYRIO/)
    expect(() => boardDays('sh600127', [listing], [{ ...buy, EXPLANATION: '日跌幅偏离值达到7%的前5只证券' }], [])).toThrow(/not a reason/)
  })
})

describe('real buy list of a day listed for two reasons (600611, 2024-07-16; test/fixtures/eastmoney/SOURCE.md)', () => {
  const rows = seats600611.result.data
  const [move, turnover] = [rows[0].EXPLANATION, rows[1].EXPLANATION]

  it('lists each seat once per listing, with that listing\'s TRADE_ID (a string in 2024)', () => {
    expect(rows).toHaveLength(10)
    for (const r of rows) {
      expect(r.BUY / r.ACCUM_AMOUNT).toBeCloseTo(r.TOTAL_BUYRIO, 10)
      expect(r.SELL).toBeNull()
      expect(Number.isInteger(Math.round((r.RISE_PROBABILITY_3DAY * r.TOTAL_BUYER_SALESTIMES_3DAY) / 100 * 1e6) / 1e6)).toBe(true)
    }
    expect(new Set(rows.filter((r) => r.EXPLANATION === move).map((r) => r.TRADE_ID))).toEqual(new Set(['5016460']))
    expect(new Set(rows.filter((r) => r.EXPLANATION === turnover).map((r) => r.TRADE_ID))).toEqual(new Set(['5016469']))
  })

  it('keeps the seats of the listing whose totals the day carries, once each', () => {
    const total = rows.filter((r) => r.EXPLANATION === move).reduce((s, r) => s + r.BUY, 0)
    // Listing rows for the two reasons (test scaffolding: the capture is the buy list alone).
    const listing = (reason: string) => ({ SECUCODE: '600611.SH', SECURITY_CODE: '600611', TRADE_DATE: '2024-07-16 00:00:00', EXPLANATION: reason, BILLBOARD_BUY_AMT: total, BILLBOARD_SELL_AMT: 0, BILLBOARD_NET_AMT: total })
    for (const order of [[move, turnover], [turnover, move]]) {
      const [day] = boardDays('sh600611', order.map(listing), rows, [])
      expect(day.reasons).toEqual(order)
      expect(day.buyers.map((b) => b.name)).toEqual(rows.filter((r) => r.EXPLANATION === order[0]).map((r) => r.OPERATEDEPT_NAME))
      expect(day.buyers[0]).toEqual({ name: '国泰君安证券股份有限公司总部', buy: 37521554.1, sell: 0, net: 37521554.1 })
    }
  })
})
