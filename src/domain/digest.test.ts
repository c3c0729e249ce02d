import { describe, expect, it } from 'vitest'
import real from '../../test/fixtures/eastmoney/report-summaries.json'
import { clip, keyPoints, MAX_POINT_CHARS } from './digest'

const len = (s: string) => [...s].length

describe('keyPoints on real broker summaries', () => {
  it('keeps the earnings facts and the forecast, drops the risk section (桂林旅游)', () => {
    const points = keyPoints(real.guilin_tourism_2016_annual)
    expect(points.length).toBeLessThanOrEqual(5)
    for (const p of points) expect(len(p)).toBeLessThanOrEqual(MAX_POINT_CHARS)
    // The forecast sentence survives without its label, cut at a clause boundary.
    const forecast = points.find((p) => p.includes('每股收益分别为0.19元'))
    expect(forecast).toBeDefined()
    expect(forecast!.startsWith('根据年报')).toBe(true)
    expect(points.some((p) => p.startsWith('受营改增政策影响'))).toBe(true)
    expect(points.join('|')).not.toMatch(/风险提示|游客人次增长/)
    // A sentence with neither a number nor a claim word is not a point.
    expect(points.join('|')).not.toContain('由桂林当地丰富的旅游资源')
  })

  it('keeps the downgrade and the EPS forecast, not the risk list split by semicolons (中国铝业)', () => {
    const points = keyPoints(real.chalco_debt_to_equity_2018)
    expect(points).toContain('我们下调公司A股的评级到增持评级')
    expect(points.some((p) => p.includes('EPS分别为0.09元、0.14元、0.35元'))).toBe(true)
    expect(points.join('|')).not.toMatch(/铝价下跌的风险|预焙阳极|风险提示/)
    // A bare section label ("盈利预测和投资评级。") is not a point.
    expect(points).not.toContain('盈利预测和投资评级')
  })

  it('is deterministic', () => {
    expect(keyPoints(real.chalco_debt_to_equity_2018)).toEqual(keyPoints(real.chalco_debt_to_equity_2018))
  })
})

describe('keyPoints rules', () => {
  it('gives nothing for empty or whitespace-only text', () => {
    expect(keyPoints('')).toEqual([])
    expect(keyPoints(' \n\u3000 \n')).toEqual([])
  })

  it('gives nothing for boilerplate only', () => {
    const text = '请务必阅读正文之后的免责声明部分。本报告仅供参考，不构成投资建议。分析师承诺：本人具有中国证券业协会授予的证券投资咨询执业资格。\n风险提示：宏观经济下行；行业竞争加剧。'
    expect(keyPoints(text)).toEqual([])
  })

  it('strips stacked labels and keeps order', () => {
    const text = '投资要点：事件：公司前三季度营收12.3亿元，同比增长15.2%。我们对此点评如下。毛利率改善明显。维持“买入”评级。'
    expect(keyPoints(text)).toEqual(['公司前三季度营收12.3亿元，同比增长15.2%', '毛利率改善明显', '维持“买入”评级'])
  })

  it('keeps the best-scored points when there are more than max, in original order', () => {
    const text = '盈利能力改善。营收1亿元。利润2亿元，同比增长3%。目标价10元。'
    expect(keyPoints(text, 2)).toEqual(['利润2亿元，同比增长3%', '目标价10元'])
  })

  it('a list marker is not a number; a decimal at the start is', () => {
    const text = '投资要点：\n1、公司是行业内的重要企业\n2、预计明年净利润增长20%\n（3）渠道建设持续推进\n1.2亿元订单已经落地'
    expect(keyPoints(text)).toEqual(['预计明年净利润增长20%', '1.2亿元订单已经落地'])
  })

  it('the risk section ends at the paragraph break', () => {
    const text = '风险提示：需求不及预期。原材料涨价。\n预计2027年净利润增长20%。'
    expect(keyPoints(text)).toEqual(['预计2027年净利润增长20%'])
  })
})

describe('clip', () => {
  it('leaves short text alone and cuts long text at a comma with an ellipsis', () => {
    expect(clip('短句')).toBe('短句')
    const long = '甲'.repeat(80) + '，' + '乙'.repeat(80)
    expect(clip(long)).toBe('甲'.repeat(80) + '…')
    expect(len(clip('丙'.repeat(300)))).toBe(MAX_POINT_CHARS)
  })
})
