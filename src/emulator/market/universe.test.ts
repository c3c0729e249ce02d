import { describe, expect, it } from 'vitest'
import { FOREX_PAIRS, FUTURES_PRODUCTS, US_LISTINGS } from '../../data/markets'
import { parseSymbol } from '../../domain/symbols'
import { isSessionDay } from './calendars'
import { sessionFor, calendarFor } from './sessions'
import { realNames } from './real-names'
import { profileOf, STOCK_COUNT, universe } from './universe'

const { list, byCode } = universe()
const stocks = list.filter((i) => i.kind === 'stock')
const count = (f: (code: string) => boolean) => stocks.filter((s) => f(s.code)).length

describe('universe', () => {
  it('has exactly 5,572 stocks with realistic counts per board', () => {
    expect(stocks).toHaveLength(STOCK_COUNT)
    const boards: Record<string, unknown[]> = {}
    for (const s of stocks) (boards[s.board!] ??= []).push(s)
    expect(boards['sh-main']!.length).toBeGreaterThan(1600)
    expect(boards['sh-main']!.length).toBeLessThan(1800)
    expect(boards.star!.length).toBeGreaterThan(550)
    expect(boards.star!.length).toBeLessThan(630)
    expect(boards['sz-main']!.length).toBeGreaterThan(1400)
    expect(boards['sz-main']!.length).toBeLessThan(1600)
    expect(boards.chinext!.length).toBeGreaterThan(1300)
    expect(boards.chinext!.length).toBeLessThan(1500)
    expect(boards.bj!.length).toBeGreaterThan(250)
    expect(boards.bj!.length).toBeLessThan(320)
    for (const p of ['sh600', 'sh601', 'sh603', 'sh605', 'sz000', 'sz001', 'sz002', 'sz003', 'sz300', 'sz301', 'bj43', 'bj83', 'bj87', 'bj920']) {
      expect(count((c) => c.startsWith(p)), p).toBeGreaterThan(10)
    }
  })

  it('round-trips every code through the parser, with matching kind and board', () => {
    const seen = new Set<string>()
    for (const i of list) {
      const parsed = parseSymbol(i.code)
      expect(parsed.code).toBe(i.code)
      expect(parsed.kind).toBe(i.kind)
      expect(parsed.board).toBe(i.board)
      expect(seen.has(i.code)).toBe(false)
      seen.add(i.code)
      expect(byCode.get(i.code)).toBe(i)
    }
  })

  it('names the real stocks correctly and gives the rest unique names', () => {
    const real: Record<string, string> = {
      sh600519: '贵州茅台', sz000001: '平安银行', sh601318: '中国平安', sz000858: '五粮液', sz300750: '宁德时代',
      sh688981: '中芯国际', sh600036: '招商银行', sh601398: '工商银行', sz002594: '比亚迪', sh600900: '长江电力', bj830799: '艾融软件',
    }
    for (const [code, name] of Object.entries(real)) expect(byCode.get(code)?.name).toBe(name)
    const names = new Set(stocks.map((s) => s.name))
    expect(names.size).toBe(STOCK_COUNT)
    for (const s of stocks) if (!realNames().has(s.code)) expect(s.name).toMatch(/^(\*?ST)?[\u4e00-\u9fff]{2,4}$/)
  })

  it('names every code of the real list with its real name, and no other code with a real name', () => {
    expect(byCode.get('sz000002')?.name).toBe('万科Ａ')
    expect(byCode.get('sz000001')?.name).toBe('平安银行')
    const listed = stocks.filter((s) => realNames().has(s.code))
    for (const s of listed) expect(s.name, s.code).toBe(realNames().get(s.code))
    expect(listed.length).toBeGreaterThan(4000)
    // A synthetic name is no real one, nor a real one without its ST mark or share-class letter.
    const real = new Set([...realNames().values()].flatMap((n) => [n, n.replace(/^S?\*?ST/, '').replace(/[A-Z\uff21-\uff3a]$/, '')]))
    for (const s of stocks) if (!realNames().has(s.code)) expect(real.has(s.name.replace(/^\*?ST/, '')), s.name).toBe(false)
    // Real names keep the exchange's spelling: a full-width Ａ where the exchange writes one, no padding.
    expect(realNames().get('sz000011')).toBe('深物业A')
    for (const n of realNames().values()) expect(n).not.toMatch(/\s|^(XD|XR|DR)/)
  })

  it('marks about 5% as ST (the real share: 321 of the 5,880 listed stocks), 5% limits on the main boards', () => {
    const st = stocks.filter((s) => /^S?\*?ST/.test(s.name))
    expect(st.length / STOCK_COUNT).toBeGreaterThan(0.04)
    expect(st.length / STOCK_COUNT).toBeLessThan(0.065)
    for (const s of st) expect(s.limit).toBe({ 'sh-main': 0.05, 'sz-main': 0.05, star: 0.2, chinext: 0.2, bj: 0.3 }[s.board!])
    for (const s of stocks.filter((s) => !/^S?\*?ST/.test(s.name))) {
      expect(s.limit).toBe({ 'sh-main': 0.1, 'sz-main': 0.1, star: 0.2, chinext: 0.2, bj: 0.3 }[s.board!])
    }
  })

  it('spreads listing dates realistically and respects board history', () => {
    const before = stocks.filter((s) => s.listDate < '2016-08-08').length / STOCK_COUNT
    expect(before).toBeGreaterThan(0.66)
    expect(before).toBeLessThan(0.74)
    expect(stocks.some((s) => s.listDate >= '2026-09-01')).toBe(true)
    for (const s of stocks) {
      expect(s.listDate <= '2026-10-31').toBe(true)
      expect(isSessionDay('cn', s.listDate) || s.listDate < '2000-01-01', s.code).toBe(true)
      if (s.board === 'star') expect(s.listDate >= '2019-07-22').toBe(true)
      if (s.code.startsWith('sz301')) expect(s.listDate >= '2020-08-24').toBe(true)
      if (s.board === 'bj') expect(s.listDate >= '2021-11-15').toBe(true)
      if (s.code.startsWith('bj920')) expect(s.listDate >= '2024-01-01').toBe(true)
    }
  })

  it('gives stocks share counts that make turnover sensible', () => {
    for (const s of stocks) {
      expect(s.floatShares).toBeGreaterThan(0)
      expect(s.floatShares!).toBeLessThanOrEqual(s.totalShares!)
      expect(s.secid).toBe(`${s.code.startsWith('sh') ? 1 : 0}.${s.symbol}`)
      expect(s.currency).toBe('CNY')
      expect(s.decimals).toBe(2)
      const t = profileOf(s).volBase
      expect(t).toBeGreaterThanOrEqual(0.2)
      expect(t).toBeLessThanOrEqual(8)
    }
  })

  it('has the indexes, ETFs, bonds and sectors', () => {
    const of = (k: string) => list.filter((i) => i.kind === k)
    expect(of('index').length).toBeGreaterThanOrEqual(10)
    expect(byCode.get('sh000001')?.name).toBe('上证指数')
    expect(byCode.get('bj899050')?.listDate).toBe('2022-11-21')
    expect(byCode.get('sz399006')?.secid).toBe('0.399006')
    expect(of('etf').length).toBeGreaterThanOrEqual(25)
    expect(byCode.get('sh510300')).toMatchObject({ name: '沪深300ETF', decimals: 3, limit: 0.1, secid: '1.510300' })
    expect(byCode.get('sz159915')).toMatchObject({ name: '创业板ETF', secid: '0.159915' })
    const bonds = of('bond')
    expect(bonds.length).toBe(40)
    for (const b of bonds) {
      expect(b.name).toMatch(/^[\u4e00-\u9fff]{2}转债$/)
      expect(b).toMatchObject({ decimals: 3, limit: 0.2 })
      expect(b.code).toMatch(/^(sh11[038]|sz12[378])\d{3}$/)
    }
    expect(new Set(bonds.map((b) => b.name)).size).toBe(40)
    for (const code of ['sh110050', 'sh113050', 'sz123100']) expect(byCode.get(code)?.kind).toBe('bond')
    expect(of('sector').length).toBeGreaterThanOrEqual(30)
    expect(byCode.get('pt0477')).toMatchObject({ name: '酿酒行业', secid: '90.BK0477', floatShares: null })
  })

  it('has HK, US, US indexes, futures and forex with the right identifiers', () => {
    expect(byCode.get('hk00700')).toMatchObject({ name: '腾讯控股', currency: 'HKD', secid: '116.00700', limit: null })
    expect(byCode.get('hk09988')?.name).toBe('阿里巴巴-W')
    expect(list.filter((i) => i.kind === 'hk').length).toBeGreaterThanOrEqual(20)
    for (const [t, ex] of Object.entries(US_LISTINGS)) {
      expect(byCode.get('us' + t)?.secid).toBe(`${{ NASDAQ: 105, NYSE: 106, AMEX: 107 }[ex]}.${t}`)
    }
    expect(byCode.get('us.DJI')).toMatchObject({ kind: 'us-index', secid: '100.DJIA' })
    expect(byCode.get('us.SPX')?.secid).toBe('100.SPX')
    const futures = list.filter((i) => i.kind === 'future')
    // 48 monthly contracts per product plus its main continuous contract (fuRB0).
    expect(futures).toHaveLength(Object.keys(FUTURES_PRODUCTS).length * 49)
    expect(byCode.get('fuRB0')).toMatchObject({ secid: '113.rbm', name: '螺纹钢连续', listDate: byCode.get('fuRB2401')!.listDate })
    expect(byCode.get('fuRB2501')).toMatchObject({ secid: '113.rb2501', listDate: '2024-01-02', lastDate: '2025-01-15', limit: 0.07, name: '螺纹钢2501' })
    expect(byCode.get('fuSR2501')?.secid).toBe('115.SR501')
    expect(byCode.get('fuIF2506')?.secid).toBe('8.IF2506')
    expect(byCode.get('fuSC2712')?.secid).toBe('142.sc2712')
    expect(byCode.get('fuLC2603')?.secid).toBe('225.lc2603')
    expect(byCode.get('fuM2409')?.secid).toBe('114.m2409')
    for (const pair of Object.keys(FOREX_PAIRS)) expect(byCode.get('fx' + pair)).toMatchObject({ decimals: 4, limit: null })
    expect(byCode.get('fxUSDCNH')?.secid).toBe('133.USDCNH')
    expect(byCode.get('fxEURUSD')?.secid).toBe('119.EURUSD')
  })

  it('uses the right calendars and sessions per kind', () => {
    expect(profileOf(byCode.get('hk00700')!).calendar).toBe('hk')
    expect(calendarFor('us')).toBe('us')
    expect(sessionFor('hk').minutes).toBe(330)
  })

  it('is built once and in a stable order', () => {
    expect(universe().list).toBe(list)
    expect(list[0].code).toBe('sh600000')
    expect(list.findIndex((i) => i.kind !== 'stock')).toBe(STOCK_COUNT)
  })
})
