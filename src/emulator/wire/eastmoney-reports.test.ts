import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import capture from '../../../test/fixtures/eastmoney/report-predic-capture.json'
import whole from '../../../test/fixtures/eastmoney/report-list-qtype0-2026-09-28-30.json'
import { market } from '../market'
import { handleReportList, handleReportPage } from './eastmoney-reports'

const NOW = Date.parse('2026-11-20T10:30:00+08:00')
const list = async (q: string) => (await handleReportList(new URLSearchParams(q), market, NOW).json()) as any

describe('emulated report list', () => {
  it('answers in the upstream envelope with every row key, newest first', async () => {
    const body = await list('code=600519&beginTime=2025-11-20&endTime=2026-11-20&pageSize=50&pageNo=1&qType=0')
    // The reportapi envelope of a real capture (of /report/predic, the list's sibling), key for key.
    expect(Object.keys(body)).toEqual(Object.keys(capture))
    expect(body.currentYear).toBe(2026)
    expect(body.hits).toBe(body.data.length)
    const dates = body.data.map((r: any) => r.publishDate)
    expect([...dates].sort().reverse()).toEqual(dates)
    for (const r of body.data) {
      expect(r.stockCode).toBe('600519')
      expect(r.market).toBe('SHANGHAI')
      expect(r.publishDate).toMatch(/^\d{4}-\d{2}-\d{2} 00:00:00\.000$/)
      // Forecasts and targets are strings as in the capture, the high target T at or above the low L.
      expect(typeof r.predictThisYearEps).toBe(typeof capture.data[0].thisYearEps)
      if (r.indvAimPriceL !== '') expect(+r.indvAimPriceT).toBeGreaterThan(+r.indvAimPriceL)
      expect(r.author.length).toBeGreaterThan(0)
      expect(r.researcher.split(',')).toHaveLength(r.author.length)
    }
  })

  it("writes each row as the real page of 2026-09-28..30 does: its keys in order, codes and forms", async () => {
    const body = await list('code=&beginTime=2026-11-16&endTime=2026-11-20&pageSize=100&pageNo=1&qType=0')
    expect(body.data.length).toBeGreaterThan(10)
    const real = whole.data[0]
    for (const r of body.data) {
      expect(Object.keys(r)).toEqual(Object.keys(real))
      expect([r.reportType, r.orgType, r.indvIsNew, r.attachType]).toEqual([real.reportType, real.orgType, real.indvIsNew, real.attachType])
      expect(r.column).toMatch(/^002004\d{3,6}$/)
      expect(r.emRatingCode).toBe({ 买入: '007', 增持: '006' }[r.emRatingName as string] ?? '')
      expect(r.indvInduCode).toMatch(/^[1-9]\d{2,3}$/)
      expect(r.indvInduName).not.toBe('')
      expect(r.newListingDate).toMatch(/^\d{4}-\d{2}-\d{2} 00:00:00\.000$/)
      if (r.newPurchaseDate !== '') expect(r.newPurchaseDate < r.newListingDate && /^\d{4}-\d{2}-\d{2} 00:00:00\.0$/.test(r.newPurchaseDate)).toBe(true)
      expect(r.encodeUrl).toMatch(/^[A-Za-z0-9+/]{43}=$/)
      if (r.indvAimPriceT !== '') expect(r.indvAimPriceT).toMatch(/^\d+\.\d{10}$/)
    }
    // Reports of one day share the first 21 characters of encodeUrl, as on the real page.
    const sameDay = body.data.filter((r: any) => r.publishDate === body.data[0].publishDate).map((r: any) => r.encodeUrl.slice(0, 21))
    expect(new Set(sameDay).size).toBe(1)
  })

  it('pages the whole market, and keeps to the date window and the clock', async () => {
    const one = await list('code=&beginTime=2026-11-01&endTime=2030-01-01&pageSize=20&pageNo=1&qType=0')
    const two = await list('code=&beginTime=2026-11-01&endTime=2030-01-01&pageSize=20&pageNo=2&qType=0')
    expect(one.data).toHaveLength(20)
    expect(two.hits).toBe(one.hits)
    expect(one.TotalPage).toBe(Math.ceil(one.hits / 20))
    expect(one.data[19].publishDate >= two.data[0].publishDate).toBe(true)
    for (const r of [...one.data, ...two.data]) expect(r.publishDate.slice(0, 10) <= '2026-11-20' && r.publishDate >= '2026-11-01').toBe(true)
  })

  it('is empty for other report types and unknown codes', async () => {
    expect(await list('code=600519&qType=1')).toMatchObject({ hits: 0, data: [], TotalPage: 0 })
    expect(await list('code=999999&qType=0')).toMatchObject({ hits: 0, data: [] })
  })
})

/**
 * The parts of a report page that scrapers read, as a form: the title's tail, the breadcrumb, the
 * heading, the c-infos spans, the content paragraphs' indent and their end, the c-foot, the PDF
 * link's form and the page script's zwinfo keys and value forms.
 */
function pageForm(html: string) {
  const zwinfo = JSON.parse(/var zwinfo= (\{.*\});\n/.exec(html)![1])
  const infos = /<div class="c-infos">([\s\S]*?)<\/div>/.exec(html)![1]
  const content = /<div id="ctx-content" class="ctx-content">([\s\S]*?)<\/div>\s*<div class="c-foot">\s*<span class="to-more">[\s\S]*?<\/span>\s*<span class="to-pre">\s*<a class="pdf-link" href="([^"]+)">/.exec(html)!
  const paragraphs = [...content[1].matchAll(/<p>([\s\S]*?)<\/p>/g)].map((m) => m[1])
  return {
    lang: /<html lang="([^"]+)">/.exec(html)![1],
    titleTail: /<title>[\s\S]*?(- 宏观研究报告 _ 数据中心 _ 东方财富网)<\/title>/.exec(html)?.[1],
    breadcrumb: /<div class="tit-route">[\s\S]*?> \n\s+\S+(-研报正文)\n/.exec(html)?.[1],
    heading: /<div class="c-title">\s*<h1 id="zw-title">[^<]+<\/h1>/.test(html),
    infos: [...infos.matchAll(/<span( [^>]*)?>/g)].map((m) => m[1] ?? '').filter((a) => !a.includes('icon')),
    publishDateEmpty: infos.includes('<span id="publish-date"></span>'),
    indented: paragraphs.slice(0, -1).every((p) => p.startsWith('\u3000\u3000')),
    firstLine: /^\u3000\u3000\S+\(\d{6}\)$/.test(paragraphs[0]),
    lastEmpty: paragraphs[paragraphs.length - 1] === '',
    pdf: content[2].replace(/AP\d{18}/, 'AP').replace(/\?\d{13}\.pdf$/, '?ms.pdf'),
    notice: zwinfo.notice_content.split('\n').slice(0, -1).map((l: string) => `<p>${l}</p>`).join('') === paragraphs.slice(0, -1).map((p) => `<p>${p}</p>`).join(''),
    eitime: /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(zwinfo.eitime),
    msIsEitimeAsUtc: content[2].endsWith(`?${Date.parse(zwinfo.eitime.replace(' ', 'T') + 'Z')}.pdf`),
    noticeDate: /^\d{4}-\d{2}-\d{2} 00:00:00$/.test(zwinfo.notice_date),
    zwinfoKeys: Object.keys(zwinfo),
    securityKeys: Object.keys(zwinfo.security[0]),
  }
}

describe('emulated report page', () => {
  it('serves the summary of a listed report, 404 for another code', async () => {
    const [row] = (await list('code=000001&beginTime=2025-11-20&endTime=2026-11-20&pageSize=1&qType=0')).data
    const res = handleReportPage(row.infoCode, market, NOW)
    expect(res.status).toBe(200)
    const html = await res.text()
    expect(html).toContain(`<h1 id="zw-title">${row.title}</h1>`)
    expect(html).toContain(`<p>\u3000\u3000${row.stockName}(000001)</p>`)
    expect(html).toContain(`“${row.emRatingName}”评级`)
    expect(html).toContain(`EPS分别为${row.predictThisYearEps}元`)
    expect(handleReportPage('AP202611209999990000', market, NOW).status).toBe(404)
  })

  it("has the real page's form (test/fixtures/eastmoney/report-page-AP202609301830020241-2026-09-30.html)", async () => {
    const real = pageForm(readFileSync('test/fixtures/eastmoney/report-page-AP202609301830020241-2026-09-30.html', 'utf8'))
    expect(real).toMatchObject({ lang: 'zh_CN', titleTail: '- 宏观研究报告 _ 数据中心 _ 东方财富网', breadcrumb: '-研报正文', heading: true, publishDateEmpty: true, indented: true, firstLine: true, lastEmpty: true, notice: true, eitime: true, msIsEitimeAsUtc: true, noticeDate: true })
    expect(real.pdf).toBe('https://pdf.dfcfw.com/pdf/H3_AP_1.pdf?ms.pdf')
    expect(real.infos).toEqual(['', ' id="publish-date"', '', '', ' class="to-link"'])
    const [row] = (await list('code=600519&beginTime=2025-11-20&endTime=2026-11-20&pageSize=1&qType=0')).data
    const emulated = pageForm(await handleReportPage(row.infoCode, market, NOW).text())
    // Keys the real page has and the model cannot fill (industry relation, traditional and English names, star) are left out.
    const { zwinfoKeys, securityKeys, ...form } = emulated
    const { zwinfoKeys: realKeys, securityKeys: realSecurityKeys, ...realForm } = real
    expect(form).toEqual(realForm)
    expect(zwinfoKeys.filter((k) => !realKeys.includes(k))).toEqual([])
    expect(securityKeys.filter((k) => !realSecurityKeys.includes(k))).toEqual([])
    expect(realKeys.filter((k) => !zwinfoKeys.includes(k))).toEqual(['star'])
  })
})
