import { describe, expect, it } from 'vitest'
import { market } from '../market'
import { boardsOf, compositionOf } from '../market/business'
import { financialReport } from '../market/fundamentals'
import { SECTORS } from '../market/catalog'
import { boardsWithPaths } from '../market/industry-paths'
import { handleEastmoney } from './eastmoney'
import realSurvey300124 from '../../../test/fixtures/eastmoney/f10-survey-300124.json'

const NOW = Date.parse('2026-11-20T10:30:00+08:00')

async function get(url: string): Promise<any> {
  const u = new URL(url)
  const res = await handleEastmoney(u, new Request(u), market, NOW)
  expect(res.status).toBe(200)
  return res.json()
}

const F10 = 'https://emweb.securities.eastmoney.com/PC_HSF10'

describe('emulated F10 pages and boards of one stock', () => {
  it('splits the latest annual revenue into product lines that add up to it', async () => {
    const body = await get(`${F10}/BusinessAnalysis/PageAjax?code=SZ300750`)
    const products = body.zygcfx.filter((r: any) => r.MAINOP_TYPE === '2')
    expect(products[0]).toMatchObject({ SECUCODE: '300750.SZ', SECURITY_CODE: '300750', ITEM_NAME: '动力电池系统', MBI_RATIO: 0.6972, RANK: 1 })
    const date = products[0].REPORT_DATE.slice(0, 10)
    const report = financialReport(market, market.byCode('sz300750')!, date, NOW)!
    const sum = products.reduce((s: number, r: any) => s + r.MAIN_BUSINESS_INCOME, 0)
    expect(sum).toBeCloseTo(report.income.revenue, 1)
    expect(products.reduce((s: number, r: any) => s + r.MAIN_BUSINESS_COST, 0)).toBeCloseTo(report.income.operatingCost, 1)
    for (const type of ['1', '3']) expect(body.zygcfx.some((r: any) => r.MAINOP_TYPE === type)).toBe(true)
    expect(body.zyfw[0].BUSINESS_SCOPE).toContain('动力电池系统')
  })

  it('every synthetic company\'s product lines come from its boards\' products, ratios summing to 1', () => {
    let checked = 0
    for (const inst of market.instruments().filter((i) => i.kind === 'stock').slice(0, 400)) {
      const comp = compositionOf(market, inst, NOW)
      if (!comp) continue
      checked++
      const made = new Set(boardsOf(inst).flatMap((b) => b.products))
      for (const p of comp.products) if (p.name !== '其他业务' && !['sh600519', 'sz000858', 'sz300750', 'sz002594', 'sh688981', 'sh600900', 'sh600036', 'sh601398', 'sz000001', 'sh601318', 'bj830799'].includes(inst.code)) expect(made.has(p.name), `${inst.code} ${p.name}`).toBe(true)
      expect(comp.products.reduce((s, p) => s + p.ratio, 0)).toBeCloseTo(1, 3)
    }
    expect(checked).toBeGreaterThan(300)
  })

  it('answers the company survey, and empty arrays for an unknown code', async () => {
    const body = await get(`${F10}/CompanySurvey/PageAjax?code=SH600519`)
    expect(body.jbzl[0]).toMatchObject({ SECUCODE: '600519.SH', SECURITY_NAME_ABBR: '贵州茅台', EM2016: '食品饮料-饮料-白酒', INDUSTRYCSRC1: '制造业-酒、饮料和精制茶制造业' })
    expect(body.jbzl[0].ORG_PROFILE).toMatch(/^ {4}\S.*茅台酒\(白酒\)/)
    expect((await get(`${F10}/CompanySurvey/PageAjax?code=SH601398`)).jbzl[0].EM2016).toBe('金融-银行-国有大型银行')
    expect(await get(`${F10}/CompanySurvey/PageAjax?code=SH000000`)).toEqual({ jbzl: [], fxxg: [] })
    expect(await get(`${F10}/BusinessAnalysis/PageAjax?code=hk00700`)).toEqual({ zyfw: [], jyps: [], zygcfx: [] })
  })

  it('writes only columns of the real survey, in its order, with paths for the industries', async () => {
    expect([...boardsWithPaths()].sort()).toEqual(Object.values(SECTORS).sort())
    const realKeys = { jbzl: Object.keys(realSurvey300124.jbzl[0]), fxxg: Object.keys(realSurvey300124.fxxg[0]) }
    for (const code of ['SZ300750', 'SH600036', 'SH688981', 'BJ830799', 'SZ000001']) {
      const body = await get(`${F10}/CompanySurvey/PageAjax?code=${code}`)
      for (const part of ['jbzl', 'fxxg'] as const) {
        const keys = Object.keys(body[part][0])
        expect(keys.filter((k) => !realKeys[part].includes(k)), `${code} ${part}`).toEqual([])
        expect(keys, `${code} ${part} order`).toEqual(realKeys[part].filter((k) => keys.includes(k)))
      }
      const j = body.jbzl[0]
      expect(j.EM2016.split('-'), code).toHaveLength(3)
      expect(j.INDUSTRYCSRC1.split('-'), code).toHaveLength(2)
      expect(j.REG_CAPITAL * 1e4).toBeCloseTo(market.byCode(code.toLowerCase())!.totalShares!, 0)
    }
  })

  it('slist/get lists the stock\'s boards, industry first, keyed by position', async () => {
    const body = await get('https://push2.eastmoney.com/api/qt/slist/get?forcect=1&spt=3&fields=f1,f12,f152,f3,f14&pi=0&pz=1000&po=1&fid=f3&invt=2&secid=0.300750')
    const rows = Object.values(body.data.diff) as any[]
    expect(rows.map((r) => r.f14)).toEqual(boardsOf(market.byCode('sz300750')!).map((b) => b.name))
    expect(rows[0]).toMatchObject({ f12: 'BK1033', f14: '电池', f13: 90 })
    expect(typeof rows[0].f3).toBe('number')
    expect(rows[1].f3).toBe('-')
    expect((await get('https://push2.eastmoney.com/api/qt/slist/get?spt=3&secid=1.999999')).data).toBeNull()
  })
})
