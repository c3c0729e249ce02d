import { readFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import excerpt from '../../../test/fixtures/eastmoney/report-list-excerpt-2026-07-25.json'
import whole from '../../../test/fixtures/eastmoney/report-list-qtype0-2026-09-28-30.json'
import sample from '../../../test/fixtures/eastmoney/report-list-rows.json'
import { keyPoints } from '../../domain/digest'
import { parseSymbol } from '../../domain/symbols'
import { createEmulatorFetch, resetEmulator, setClock } from '../../emulator/control'
import { market } from '../../emulator/market'
import { failureKind } from '../testkit'
import type { ChannelContext } from '../types'
import { fetchReportList, fetchReportSummary, readReportList, readReportPage, reportListUrl, toResearchRow } from './reports'

const rows = sample.data as Record<string, unknown>[]

describe('readReportList on third-party sample rows', () => {
  it('reads string and numeric forecasts, empty targets and a target range', () => {
    const page = readReportList(JSON.stringify(sample))
    expect(page.hits).toBe(2)
    // Newest first.
    expect(page.rows.map((r) => r.infoCode)).toEqual(['AP202608221828313285', 'AP202001311234567890'])
    expect(page.rows[0]).toEqual({
      infoCode: 'AP202608221828313285', date: '2026-08-22', code: 'sh688795', name: '摩尔线程-U', broker: '国金证券', brokerCode: null,
      analysts: ['刘高畅'], title: '全功能GPU领军', rating: '买入', lastRating: '增持', targetPrice: null, targetPriceLow: null,
      year: 2026, epsThisYear: 3.544, peThisYear: null, epsNextYear: 1.262, peNextYear: null,
    })
    expect(page.rows[1]).toMatchObject({ code: 'sz002156', brokerCode: '80000031', targetPrice: 15, targetPriceLow: 13, epsThisYear: 67.19, peNextYear: 18.71 })
  })

  it('an empty answer is no rows, not an error', () => {
    expect(readReportList('{"hits":0,"size":50,"data":[],"TotalPage":0,"pageNo":1,"currentYear":2026}')).toEqual({ hits: 0, rows: [] })
  })

  it.each([
    ['not JSON', '<html>'],
    ['no data array', '{"hits":1}'],
    ['no currentYear', JSON.stringify({ ...sample, currentYear: null })],
  ])('refuses %s', (_why, body) => {
    expect(failureKind(() => readReportList(body))).toBe('malformed')
  })

  it.each([
    ['another stock than asked', rows[0], 'sh600519'],
    ['no infoCode', { ...rows[0], infoCode: '' }, undefined],
    ['a date that is not one', { ...rows[0], publishDate: '2026-02-30 00:00:00.000' }, undefined],
    ['a low target above the high one', { ...rows[1], indvAimPriceL: '16' }, undefined],
    ['an EPS that is not a number', { ...rows[0], predictThisYearEps: 'n/a' }, undefined],
    ['a code that is not a stock', { ...rows[0], stockCode: '510300', market: 'SHANGHAI' }, undefined],
  ])('refuses a row with %s', (_why, row, code) => {
    expect(failureKind(() => toResearchRow(row as Record<string, unknown>, 2026, code ? parseSymbol(code) : undefined))).toBe('malformed')
  })
})

describe('readReportList on a real answer', () => {
  it('reads the 2026-07-25 market-wide page (4 of its 50 rows kept): codes by market, 10-decimal EPS text, first coverage', () => {
    // test/fixtures/eastmoney/SOURCE.md: hits 75 at 50 a page is TotalPage 2; the rows keep the collector's keys only.
    expect(Math.ceil(excerpt.hits / excerpt.size)).toBe(excerpt.TotalPage)
    const page = readReportList(JSON.stringify(excerpt))
    expect(page.hits).toBe(75)
    expect(page.rows.map((r) => [r.date, r.code, r.broker, r.rating, r.lastRating, r.epsThisYear, r.epsNextYear])).toEqual([
      ['2026-07-25', 'sh688293', '华源证券', '买入', null, 1.13, 1.79],
      ['2026-07-24', 'bj920178', '开源证券', '增持', null, 2.45, 3.26],
      ['2026-07-24', 'sh600188', '开源证券', '买入', '买入', 1.94, 2.19],
      ['2026-07-24', 'sz002452', '中邮证券', '买入', '买入', 1.12, 0.76],
    ])
    expect(page.rows.every((r) => r.year === 2026 && r.targetPrice === null && r.targetPriceLow === null && r.analysts.length === 0)).toBe(true)
    // ratingChange 2 with no previous rating, 3 with the same one: what the emulator sends.
    expect(excerpt.data.map((d) => [d.ratingChange, d.lastEmRatingName === '' ? null : d.lastEmRatingName === d.emRatingName])).toEqual([[2, null], [2, null], [3, true], [3, true]])
  })
})

describe('readReportList on a whole real answer', () => {
  // test/fixtures/eastmoney/SOURCE.md: every stock's reports of 2026-09-28..30 (qType=0, pageSize=100), one page of 39.
  const page = readReportList(JSON.stringify(whole))
  const byCode = (code: string) => page.rows.find((r) => r.code === code)!

  it('reads all 39 rows, newest first, within the asked days, with codes from the market field', () => {
    expect([whole.hits, whole.size, whole.data.length, whole.TotalPage, whole.pageNo, whole.currentYear]).toEqual([39, 39, 39, 1, 1, 2026])
    expect(page.hits).toBe(39)
    expect(page.rows).toHaveLength(39)
    expect(new Set(page.rows.map((r) => r.infoCode)).size).toBe(39)
    expect(page.rows.every((r) => r.date >= '2026-09-28' && r.date <= '2026-09-30' && r.year === 2026)).toBe(true)
    expect(page.rows.map((r) => r.date)).toEqual([...page.rows.map((r) => r.date)].sort().reverse())
    expect(['sh688548', 'sz000997', 'bj920106', 'sz300750', 'sh601658'].map((c) => byCode(c).name)).toEqual(['广钢气体', '新大陆', '林泰新材', '宁德时代', '邮储银行'])
  })

  it('reads the first coverage, a loss forecast, a single target and a report without rating or forecasts', () => {
    expect(byCode('sh688548')).toMatchObject({ broker: '万联证券', brokerCode: '80000187', analysts: ['夏清莹', '陈达'], rating: '增持', lastRating: null, epsThisYear: 0.35, peThisYear: 94.16, epsNextYear: 0.42, targetPrice: null })
    expect(byCode('sh688521')).toMatchObject({ epsThisYear: -0.93, peThisYear: -209, targetPrice: 250, targetPriceLow: 250, rating: '增持', lastRating: '增持' })
    expect(byCode('bj920202')).toMatchObject({ rating: null, lastRating: null, epsThisYear: null, peThisYear: null, epsNextYear: null, targetPrice: null })
    expect(byCode('sh688123').analysts).toHaveLength(6)
  })

  it("the answer's own numbers add up: each row's forecasts imply one price, and the rating codes follow the names", () => {
    // PE × EPS is the share price for every forecast year, to the rounding of the figures as written.
    const half = (s: string) => 0.5 * 10 ** -((s.includes('.') ? s.replace(/0+$/, '').split('.')[1] : '').length)
    let pairs = 0
    for (const r of whole.data as Array<Record<string, unknown>>) {
      const implied = (['ThisYear', 'NextYear', 'NextTwoYear'] as const)
        .map((y) => [String(r[`predict${y}Eps`]), String(r[`predict${y}Pe`])])
        .filter(([e, p]) => e !== '' && p !== '')
        .map(([e, p]) => ({ price: +e * +p, slack: half(e) * Math.abs(+p) + half(p) * Math.abs(+e) }))
      for (let i = 0; i < implied.length; i++)
        for (let j = i + 1; j < implied.length; j++, pairs++) expect(Math.abs(implied[i].price - implied[j].price)).toBeLessThanOrEqual(implied[i].slack + implied[j].slack)
    }
    expect(pairs).toBe(111)
    // 宁德时代: 20.845 × 14.01, 25.773 × 11.33 and 30.938 × 9.44 are all 292.0.
    expect(byCode('sz300750').epsThisYear! * byCode('sz300750').peThisYear!).toBeCloseTo(292.04, 2)
    const codes = new Map<string, Set<string>>()
    for (const r of whole.data) for (const [name, code, value] of [[r.emRatingName, r.emRatingCode, r.emRatingValue], [r.lastEmRatingName, r.lastEmRatingCode, r.lastEmRatingValue]]) codes.set(name, (codes.get(name) ?? new Set()).add(`${code}/${value}`))
    expect(Object.fromEntries([...codes].map(([k, v]) => [k, [...v]]))).toEqual({ 增持: ['006/2'], 买入: ['007/3'], '': ['/'] })
    // A first coverage has no previous rating; ratingChange is 2 there (0 on two rows), 3 for a maintained one, "" without a rating.
    expect(new Set(whole.data.filter((r) => r.lastEmRatingName === '' && r.emRatingName !== '').map((r) => r.ratingChange))).toEqual(new Set([2, 0]))
    expect(new Set(whole.data.filter((r) => r.lastEmRatingName !== '').map((r) => r.ratingChange))).toEqual(new Set([3]))
    expect(whole.data.filter((r) => r.emRatingName === '').map((r) => r.ratingChange)).toEqual(['', ''])
  })
})

describe('readReportPage', () => {
  it('reads the paragraphs of div.newsContent, entities decoded', () => {
    const html = '<h1>t</h1><div class="newsContent">\n<p>&nbsp;&nbsp;事件：营收1.2亿元&amp;利润。</p><p>维持&ldquo;买入&rdquo;评级。</p></div><div>x</div>'
    expect(readReportPage(html)).toBe('事件：营收1.2亿元&利润。\n维持“买入”评级。')
  })

  it('reads div.ctx-content, the block the pages have today, by class or id', () => {
    expect(readReportPage('<div class="c-infos">x</div><div class="ctx-content"><p>　　事件：营收增长。</p><p>维持评级。</p></div><a class="pdf-link" href="#">PDF</a>')).toBe('事件：营收增长。\n维持评级。')
    expect(readReportPage('<div id="ctx-content"><p>正文</p></div>')).toBe('正文')
  })

  it('an empty content block is an empty summary; a page without one is malformed', () => {
    expect(readReportPage('<div class="newsContent"></div>')).toBe('')
    expect(failureKind(() => readReportPage('<html><body>404</body></html>'))).toBe('malformed')
  })
})

describe('readReportPage on a real page', () => {
  // test/fixtures/eastmoney/SOURCE.md: the page of AP202609301830020241 (广钢气体, 万联证券, first coverage), served 2026-09-30 11:12:32.
  const html = readFileSync('test/fixtures/eastmoney/report-page-AP202609301830020241-2026-09-30.html', 'utf8')
  const zwinfo = JSON.parse(/var zwinfo= (\{.*\});\n/.exec(html)![1])

  it('reads the nine paragraphs of div.ctx-content, indents and the empty last paragraph gone', () => {
    const lines = readReportPage(html).split('\n')
    expect(lines).toHaveLength(9)
    expect(lines[0]).toBe('广钢气体(688548)')
    expect(lines[1]).toBe('报告关键要素:')
    expect(lines[8]).toMatch(/^风险因素：/)
    // The same text as the page script's notice_content, paragraph for paragraph.
    expect(lines).toEqual(zwinfo.notice_content.split('\n').map((l: string) => l.replace(/^\u3000+/, '')).filter((l: string) => l !== ''))
    expect(zwinfo.info_code).toBe('AP202609301830020241')
    expect(zwinfo.researcher).toBe('夏清莹,陈达')
    expect(zwinfo.security[0].stock).toBe('688548')
  })

  it("the page's own numbers add up: revenue growth, profit growth and PE", () => {
    const text = readReportPage(html)
    // 2026-2028 revenue and its growth on the year before: 35.75 / 29.75 is +20.17%, 42.26 / 35.75 is +18.21%.
    const revenue = /营业收入([\d.]+)\/([\d.]+)\/([\d.]+)亿元，同比\+([\d.]+)%\/\+([\d.]+)%\/\+([\d.]+)%/.exec(text)!.slice(1).map(Number)
    expect(revenue[1] / revenue[0] - 1).toBeCloseTo(revenue[4] / 100, 3)
    expect(revenue[2] / revenue[1] - 1).toBeCloseTo(revenue[5] / 100, 3)
    const profit = /归母净利润([\d.]+)\/([\d.]+)\/([\d.]+)亿元/.exec(text)!.slice(1).map(Number)
    // 439.62 hundred million of market value over 4.67 of profit: the 94.16x the page gives (and the list's PE).
    expect(439.62 / profit[0]).toBeCloseTo(94.16, 0)
    expect(text).toContain('对应PE为94.16x')
  })

  it('gives key points that are claims and numbers, not the stock line or the risks', () => {
    const points = keyPoints(readReportPage(html))
    expect(points.length).toBeGreaterThanOrEqual(2)
    expect(points.join('|')).not.toMatch(/^广钢气体\(688548\)$|风险因素/m)
    expect(points.some((p) => p.includes('营业收入29.75/35.75/42.26亿元'))).toBe(true)
  })
})

describe('against the emulator', () => {
  afterEach(() => resetEmulator())
  const ctx: ChannelContext = { fetch: createEmulatorFetch(market), timeoutMs: 5_000 }

  it('lists one stock\'s reports and reads each page\'s summary into key points', async () => {
    setClock(Date.parse('2026-11-20T10:30:00+08:00'))
    const inst = parseSymbol('sh600519')
    const page = await fetchReportList(ctx, { inst, begin: '2025-11-20', end: '2026-11-20', pageSize: 50 })
    expect(page.rows.length).toBeGreaterThan(0)
    expect(page.hits).toBe(page.rows.length)
    for (const r of page.rows) {
      expect(r.code).toBe('sh600519')
      expect(r.year).toBe(2026)
      expect(r.rating).not.toBeNull()
    }
    const summary = await fetchReportSummary(ctx, page.rows[0].infoCode)
    const points = keyPoints(summary)
    expect(points.length).toBeGreaterThanOrEqual(2)
    expect(points.join('|')).not.toMatch(/风险提示|免责/)
    expect(points.some((p) => p.includes(`EPS分别为${page.rows[0].epsThisYear!.toFixed(2)}元`))).toBe(true)
  })

  it('lists the whole market newest first, with codes from the market field', async () => {
    setClock(Date.parse('2026-11-20T10:30:00+08:00'))
    const page = await fetchReportList(ctx, { begin: '2026-11-01', end: '2026-11-20', pageSize: 30 })
    expect(page.rows).toHaveLength(30)
    expect(page.hits).toBeGreaterThan(30)
    for (const r of page.rows) expect(r.code).toMatch(/^(sh|sz|bj)\d{6}$/)
    expect(reportListUrl({ begin: 'a', end: 'b', pageSize: 1 })).toContain('qType=0')
  })

  it('an unknown report is the site\'s 404', async () => {
    expect(await fetchReportSummary(ctx, 'AP202611200000000000').catch((e) => e.kind)).toBe('http')
  })
})
