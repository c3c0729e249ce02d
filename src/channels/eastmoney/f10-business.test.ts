import { describe, expect, it } from 'vitest'
import realBusiness from '../../../test/fixtures/eastmoney/f10-business-600519.json'
import orgInfo002475 from '../../../test/fixtures/eastmoney/f10-orginfo-002475.json'
import realSurvey300124 from '../../../test/fixtures/eastmoney/f10-survey-300124.json'
import realSurvey from '../../../test/fixtures/eastmoney/f10-survey-600000.json'
import { ChannelError } from '../errors'
import { businessUrl, parseComposition, parseSurvey, surveyUrl } from './f10-business'

// Shaped as the live BusinessAnalysis page answers (keys as akshare stock_zygc_em reads them).
const row = (date: string, type: string, name: string, income: number, ratio: number) => ({
  SECUCODE: '600519.SH', SECURITY_CODE: '600519', REPORT_DATE: `${date} 00:00:00`, MAINOP_TYPE: type, ITEM_NAME: name,
  MAIN_BUSINESS_INCOME: income, MBI_RATIO: ratio, MAIN_BUSINESS_COST: income * 0.1, MBC_RATIO: ratio, MAIN_BUSINESS_RPOFIT: income * 0.9, MBR_RATIO: ratio, GROSS_RPOFIT_RATIO: 0.9, RANK: 1,
})
const page = (rows: unknown[]) => JSON.stringify({ zyfw: [], jyps: [], zygcfx: rows })

describe('F10 main-business composition', () => {
  it('builds the F10 urls from our codes', () => {
    expect(businessUrl('sh600519')).toBe('https://emweb.securities.eastmoney.com/PC_HSF10/BusinessAnalysis/PageAjax?code=SH600519')
    expect(surveyUrl('bj830799')).toBe('https://emweb.securities.eastmoney.com/PC_HSF10/CompanySurvey/PageAjax?code=BJ830799')
    expect(() => businessUrl('hk00700')).toThrow(ChannelError)
  })

  it('reads the latest report\'s product lines, largest first, ignoring industry and region rows', () => {
    const c = parseComposition(page([
      row('2024-12-31', '1', '酒类', 1.7e11, 1),
      row('2024-12-31', '2', '系列酒', 2.4e10, 0.1412),
      row('2024-12-31', '2', '茅台酒', 1.46e11, 0.8588),
      row('2024-12-31', '3', '国内', 1.65e11, 0.97),
      row('2024-06-30', '2', '茅台酒', 7e10, 0.85),
      row('2024-06-30', '2', '系列酒', 1.2e10, 0.15),
    ]))
    expect(c).toEqual({ reportDate: '2024-12-31', products: [{ name: '茅台酒', income: 1.46e11, ratio: 0.8588 }, { name: '系列酒', income: 2.4e10, ratio: 0.1412 }] })
  })

  it('accepts numbers sent as strings', () => {
    const r = { ...row('2024-12-31', '2', '白酒', 1, 1), MAIN_BUSINESS_INCOME: '123.5', MBI_RATIO: '1' }
    expect(parseComposition(page([r]))?.products[0]).toEqual({ name: '白酒', income: 123.5, ratio: 1 })
  })

  it('keeps lines covering part of the revenue, and derives a missing ratio from the incomes', () => {
    expect(parseComposition(page([row('2024-12-31', '2', 'A', 50, 0.5), row('2024-12-31', '2', 'B', 20, 0.2)]))?.products.map((p) => p.ratio)).toEqual([0.5, 0.2])
    const noRatio = [{ ...row('2024-12-31', '2', 'A', 75, 0), MBI_RATIO: null }, { ...row('2024-12-31', '2', 'B', 25, 0), MBI_RATIO: null }]
    expect(parseComposition(page(noRatio))?.products).toEqual([{ name: 'A', income: 75, ratio: 0.75 }, { name: 'B', income: 25, ratio: 0.25 }])
  })

  it('is null when the page has no composition', () => {
    expect(parseComposition(page([]))).toBeNull()
    expect(parseComposition(JSON.stringify({ zyfw: [] }))).toBeNull()
    expect(parseComposition(page([row('2024-12-31', '3', '国内', 1, 1)]))).toBeNull()
  })

  it('rejects what does not add up', () => {
    expect(() => parseComposition('<html>')).toThrow(ChannelError)
    expect(() => parseComposition(JSON.stringify({ zygcfx: {} }))).toThrow(/not an array/)
    expect(() => parseComposition(page([row('2024-12-31', '2', 'A', 1, 0.7), row('2024-12-31', '2', 'B', 1, 0.4)]))).toThrow(/sum to 1.1000, more than 1/)
    expect(() => parseComposition(page([row('2024-12-31', '2', 'A', 1, -0.1)]))).toThrow(/not a share/)
    expect(() => parseComposition(page([row('2024-12-31', '2', 'A', 1, 1.5)]))).toThrow(/not a share/)
    expect(() => parseComposition(page([{ ...row('2024-12-31', '2', 'A', 1, 1), REPORT_DATE: null }]))).toThrow(/report date/)
    expect(() => parseComposition(page([{ ...row('2024-12-31', '2', '', 1, 1) }]))).toThrow(/item name/)
  })
})

describe('F10 samples from public captures (test/fixtures/eastmoney/SOURCE.md)', () => {
  it('reads 600519\'s FY2025 product lines: incomes to the cent, ratios as fractions of all main business', () => {
    const c = parseComposition(JSON.stringify(realBusiness))
    expect(c).toEqual({
      reportDate: '2025-12-31',
      products: [
        { name: '茅台酒', income: 146499906480.49, ratio: 0.867695 },
        { name: '其他系列酒', income: 22274678707.16, ratio: 0.131929 },
      ],
    })
    // The products add up to the industry row 白酒; the ratios divide by the whole (白酒 + 其他(补充)).
    const rows = realBusiness.zygcfx
    const whole = rows.filter((r) => r.MAINOP_TYPE === '1').reduce((s, r) => s + r.MAIN_BUSINESS_INCOME, 0)
    for (const p of c!.products) expect(p.income / whole).toBeCloseTo(p.ratio, 5)
    expect(c!.products[0].income + c!.products[1].income).toBeCloseTo(rows[0].MAIN_BUSINESS_INCOME, 2)
  })

  it('reads the survey of 600000: EM2016 is a three-level path; absent texts are null', () => {
    expect(parseSurvey(JSON.stringify(realSurvey))).toEqual({ profile: null, scope: null, industry: '金融-银行-股份制与城商行' })
  })

  it('reads a whole real survey answer (300124): 40 jbzl columns, the profile\'s padding trimmed, EM2016 a path', () => {
    const got = parseSurvey(JSON.stringify(realSurvey300124))!
    expect(got.industry).toBe('机械设备-机器人-工业机器人')
    expect(got.profile!.startsWith('深圳市汇川技术股份有限公司(简称“汇川技术”)创立于2003年')).toBe(true)
    expect(got.scope!.startsWith('一般经营项目:工业自动化产品')).toBe(true)
    const j = realSurvey300124.jbzl[0]
    // The CSRC industry is a path too; the registered capital (万元) is the share count (2 661 146 676) over 10 000.
    expect(j.INDUSTRYCSRC1).toBe('制造业-电气机械和器材制造业')
    expect(j.REG_CAPITAL * 1e4).toBeCloseTo(2661146676, 0)
    const f = realSurvey300124.fxxg[0]
    expect(f.TOTAL_ISSUE_NUM * f.ISSUE_PRICE).toBeCloseTo(f.TOTAL_FUNDS, 2)
  })

  it('reads a row in the columns of RPT_F10_BASIC_ORGINFO (002475), trimming the profile\'s padding', () => {
    expect(parseSurvey(JSON.stringify({ jbzl: [orgInfo002475], fxxg: [] }))).toEqual({
      profile: '立讯精密工业股份有限公司成立于2004年。',
      scope: '生产经营连接线、连接器。',
      industry: '电子设备-消费电子设备-消费电子设备',
    })
  })

  it('refuses the older CompanySurveyAjax object with pinyin keys rather than read it as a company without texts', () => {
    const legacy = { jbzl: { gsmc: '宁德时代新能源科技股份有限公司', agjc: '宁德时代', sshy: '电池', gsjj: '公司是全球领先的新能源创新科技公司。', jyfw: '锂离子电池' } }
    expect(() => parseSurvey(JSON.stringify(legacy))).toThrow(/none of ORG_PROFILE/)
  })
})

describe('F10 company survey', () => {
  it('reads the profile, scope and industry of jbzl[0]', () => {
    const text = JSON.stringify({ jbzl: [{ SECUCODE: '600519.SH', ORG_NAME: '贵州茅台酒股份有限公司', EM2016: '食品饮料-饮料-白酒', ORG_PROFILE: ' 公司主要生产销售茅台酒。 ', BUSINESS_SCOPE: '茅台酒系列产品的生产与销售' }], fxxg: [{}] })
    expect(parseSurvey(text)).toEqual({ profile: '公司主要生产销售茅台酒。', scope: '茅台酒系列产品的生产与销售', industry: '食品饮料-饮料-白酒' })
  })

  it('is null for an unknown company; empty texts are null; garbage is malformed', () => {
    expect(parseSurvey(JSON.stringify({ jbzl: [], fxxg: [] }))).toBeNull()
    expect(parseSurvey(JSON.stringify({ jbzl: [{ ORG_PROFILE: '' }] }))).toEqual({ profile: null, scope: null, industry: null })
    expect(() => parseSurvey('garbage')).toThrow(ChannelError)
    expect(() => parseSurvey(JSON.stringify({ jbzl: ['x'] }))).toThrow(/not an object/)
  })
})
