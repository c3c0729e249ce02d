import { describe, expect, it } from 'vitest'
import capture from '../../../test/fixtures/eastmoney/report-predic-capture.json'
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

describe('emulated report page', () => {
  it('serves the summary of a listed report, 404 for another code', async () => {
    const [row] = (await list('code=000001&beginTime=2025-11-20&endTime=2026-11-20&pageSize=1&qType=0')).data
    const res = handleReportPage(row.infoCode, market, NOW)
    expect(res.status).toBe(200)
    const html = await res.text()
    expect(html).toContain('<h1 id="zw-title">')
    // The shape public scrapers match on the live page: the content block closes right before c-foot.
    expect(html).toMatch(/<div id="ctx-content" class="ctx-content">[\s\S]*?<\/div>\s*<div class="c-foot"><a class="pdf-link" href="https:\/\/pdf\.dfcfw\.com\/pdf\/H3_AP\d{18}_1\.pdf">/)
    expect(html).toContain(`“${row.emRatingName}”评级`)
    expect(html).toContain(`EPS分别为${row.predictThisYearEps}元`)
    expect(handleReportPage('AP202611209999990000', market, NOW).status).toBe(404)
  })
})
