import { describe, expect, it } from 'vitest'
import { market } from '../market'
import { CCASS_PATH, handleHkex, NO_RECORD } from './hkex'

const URL_ = new URL(`https://www3.hkexnews.hk${CCASS_PATH}`)
// Friday 2026-11-20 10:30 Beijing (= HK).
const NOW = Date.parse('2026-11-20T10:30:00+08:00')

const input = (html: string, name: string) => new RegExp(`name="${name}"[^>]*value="([^"]*)"`).exec(html)?.[1]
const get = async () => (await handleHkex(URL_, new Request(URL_), market, NOW)).text()
async function post(fields: Record<string, string>) {
  const res = await handleHkex(URL_, new Request(URL_, { method: 'POST', body: new URLSearchParams(fields).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } }), market, NOW)
  return { status: res.status, html: await res.text() }
}

async function search(date: string, code = '00700') {
  const form = await get()
  return post({ __EVENTTARGET: 'btnSearch', __VIEWSTATE: input(form, '__VIEWSTATE')!, __VIEWSTATEGENERATOR: input(form, '__VIEWSTATEGENERATOR')!, txtShareholdingDate: date, txtStockCode: code })
}

describe('the CCASS search page', () => {
  it('GET: the form with its view state, today and yesterday\'s record as the newest date, no result', async () => {
    const html = await get()
    expect(input(html, '__VIEWSTATE')).toMatch(/^\/wE/)
    expect(input(html, 'today')).toBe('20261120')
    expect(input(html, 'txtShareholdingDate')).toBe('2026/11/19')
    expect(html).not.toContain('ccass-search-summary-table')
  })

  it('POST: the result for the date shown (a Sunday shows Saturday\'s record), with the summary and the participants', async () => {
    const { html } = await search('2026/11/15')
    expect(input(html, 'txtShareholdingDate')).toBe('2026/11/14')
    expect(input(html, 'txtStockCode')).toBe('00700')
    expect(html).toContain('<div class="ccass-search-datarow ccass-search-total">')
    expect(html).toMatch(/<td class="col-participant-id">\s*<div class="mobile-list-heading">Participant ID:<\/div>\s*<div class="mobile-list-body">C00019<\/div>/)
  })

  it('answers the alert and no result for an unknown stock or a date out of the 12 months kept', async () => {
    expect(input((await search('2026/11/19', '00001')).html, 'alertMsg')).toBe(NO_RECORD)
    expect(input((await search('2025/10/01')).html, 'alertMsg')).toMatch(/out of range/)
    expect(input((await search('2026/11/20')).html, 'alertMsg')).toMatch(/out of range/)
  })

  it('a POST without view state is the plain form; a forged one is ASP.NET\'s error page', async () => {
    const bare = await post({ __EVENTTARGET: 'btnSearch', txtShareholdingDate: '2026/11/19', txtStockCode: '00700' })
    expect(bare.status).toBe(200)
    expect(bare.html).not.toContain('ccass-search-summary-table')
    expect(input(bare.html, 'alertMsg')).toBe('')
    expect((await post({ __EVENTTARGET: 'btnSearch', __VIEWSTATE: 'forged', txtShareholdingDate: '2026/11/19', txtStockCode: '00700' })).status).toBe(500)
  })

  it('404s another path of the host', async () => {
    expect((await handleHkex(new URL('https://www3.hkexnews.hk/sdw/search/other.aspx'), new Request(URL_), market, NOW)).status).toBe(404)
  })
})
