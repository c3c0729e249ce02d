import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseSymbol } from '../../domain/symbols'
import { createEmulatorFetch, resetEmulator, setClock } from '../../emulator/control'
import { market } from '../../emulator/market'
import { fakeContext, failureKind } from '../testkit'
import type { ChannelContext } from '../types'
import { CCASS_URL, fetchCcass, parseCcass, readForm, searchBody } from './ccass'

// A result page built from the markup public parsers document, and a real one (00700, 2019-10-29):
// test/fixtures/hkex/SOURCE.md says what comes from where.
const PAGE = Object.values(import.meta.glob('/test/fixtures/hkex/searchsdw-result.html', { query: '?raw', import: 'default', eager: true }))[0]
const TENCENT_PAGE = Object.values(import.meta.glob('/test/fixtures/hkex/searchsdw-result-00700-2019-10-29.html', { query: '?raw', import: 'default', eager: true }))[0]
const PETRO = '00857'

const ctx: ChannelContext = { fetch: createEmulatorFetch(market), timeoutMs: 10_000 }

beforeAll(() => {
  resetEmulator()
  setClock(Date.parse('2026-11-20T16:00:00+08:00'))
})
afterAll(() => resetEmulator())

/** The page with one exact piece of text replaced (which must be there). */
function edit(from: string | RegExp, to: string): string {
  const out = PAGE.replace(from, to)
  expect(out).not.toBe(PAGE)
  return out
}

describe('parseCcass', () => {
  it('reads the date shown, the issued shares, the summary categories and every listed participant, largest first', () => {
    const s = parseCcass(PAGE, PETRO)
    expect(s).toMatchObject({ date: '2026-06-20', code: PETRO, name: 'PETROCHINA COMPANY LIMITED - H SHARES', issued: 1_847_269_704 })
    expect(s.categories).toEqual([
      { key: 'market_intermediaries', label: 'Market Intermediaries', shareholding: 1_546_313_565, participants: 6, percent: 83.7 },
      { key: 'consenting_investor_participants', label: 'Consenting Investor Participants', shareholding: 0, participants: 0, percent: 0 },
      { key: 'non_consenting_investor_participants', label: 'Non-consenting Investor Participants', shareholding: 3_845_600, participants: 1824, percent: 0.2 },
    ])
    expect(s.total).toEqual({ key: 'total', label: 'Total', shareholding: 1_550_159_165, participants: 1830, percent: 83.9 })
    expect(s.participants.map((p) => [p.id, p.shareholding, p.percent])).toEqual([
      ['C00019', 712_401_223, 38.56],
      ['A00003', 301_228_400, 16.3],
      ['C00100', 205_118_090, 11.1],
      ['C00010', 160_000_000, 8.66],
      ['B01451', 98_765_432, 5.34],
      ['A00004', 68_800_420, 3.72],
    ])
    expect(s.participants[0]).toMatchObject({ name: 'THE HONGKONG AND SHANGHAI BANKING CORPORATION LIMITED', address: expect.stringContaining('TOWER 2 & 3 HSBC CENTRE') })
  })

  it('reads a real page: 00700 on 2019-10-29, every number adding up', () => {
    const s = parseCcass(TENCENT_PAGE, '00700')
    expect(s).toMatchObject({ date: '2019-10-29', code: '00700', name: 'TENCENT HOLDINGS LIMITED', issued: 9_553_315_311 })
    expect(s.categories).toEqual([
      { key: 'market_intermediaries', label: 'Market Intermediaries', shareholding: 6_584_687_539, participants: 540, percent: 68.92 },
      { key: 'consenting_investor_participants', label: 'Consenting Investor Participants', shareholding: 31_300, participants: 4, percent: 0 },
      { key: 'non_consenting_investor_participants', label: 'Non-consenting Investor Participants', shareholding: 3_532_023, participants: 380, percent: 0.03 },
    ])
    // The Total's percent is the categories' printed ones summed (68.95), not 6,588,250,862 ÷ 9,553,315,311 cut (68.96).
    expect(s.total).toEqual({ key: 'total', label: 'Total', shareholding: 6_588_250_862, participants: 924, percent: 68.95 })
    expect(Math.floor((6_588_250_862 / 9_553_315_311) * 10_000) / 100).toBe(68.96)
    // 540 intermediaries and 4 consenting investors listed, holding the Total less the 380 non-consenting investors' shares.
    expect(s.participants).toHaveLength(544)
    expect(s.participants.reduce((sum, p) => sum + p.shareholding, 0)).toBe(6_588_250_862 - 3_532_023)
    expect(s.participants[0]).toEqual({ id: 'C00019', name: 'THE HONGKONG AND SHANGHAI BANKING', address: 'HSBC WEALTH BUSINESS SERVICES 8/F TOWER 2 & 3 HSBC CENTRE 1 SHAM MONG ROAD KOWLOON', shareholding: 1_709_894_041, percent: 17.89 })
    expect(s.participants.at(-1)).toMatchObject({ id: 'B02162', shareholding: 100, percent: 0 })
    expect(failureKind(() => parseCcass(TENCENT_PAGE.replace('<div class="value">68.95%</div>', '<div class="value">68.96%</div>'), '00700'))).toBe('malformed')
  })

  it.each([
    ['a category that does not add up to the Total', () => edit('<div class="value">1,546,313,565</div>', '<div class="value">1,546,313,566</div>'), /categories hold/],
    ['participants counted differently from the Total', () => edit('<div class="value">1,830</div>', '<div class="value">1,831</div>'), /count/],
    ['a listed holding that breaks the sum', () => edit('<div class="mobile-list-body">712,401,223</div>', '<div class="mobile-list-body">712,401,224</div>'), /listed participants hold/],
    ['a row missing from the table', () => edit(/<tr>\s*<td class="col-participant-id">\s*<div class="mobile-list-heading">Participant ID:<\/div>\s*<div class="mobile-list-body">C00100[\s\S]*?<\/tr>/, ''), /listed participants hold/],
    ['a percent that is not shares ÷ issued', () => edit('38.56%', '38.66%'), /is not 712401223 of 1847269704/],
    ['a Total percent that is not the sum of the categories\' printed ones', () => edit('83.90%', '83.93%'), /Total/],
    ['a number that is no number', () => edit('<div class="mobile-list-body">160,000,000</div>', '<div class="mobile-list-body">160.000.000</div>'), /not a number/],
    ['a category the page never had', () => edit('Consenting Investor Participants</div>', 'Other Holders</div>'), /unknown summary category/],
    ['more shares in CCASS than issued', () => edit('<div class="summary-value">1,847,269,704</div>', '<div class="summary-value">1,047,269,704</div>'), /percent|issued/],
    ['a participant ID out of shape', () => edit('>B01451<', '>B1451<'), /no participant ID/],
    ['a page cut short', () => PAGE.slice(0, PAGE.indexOf('A00004')), /never closes|participant/],
  ])('rejects %s as malformed', (_what, page, why) => {
    expect(failureKind(() => parseCcass(page(), PETRO))).toBe('malformed')
    expect(() => parseCcass(page(), PETRO)).toThrow(why)
  })

  it('rejects the page of another stock', () => {
    expect(() => parseCcass(PAGE, '00700')).toThrow(/page is of stock "00857"/)
  })

  it('is empty for the form with an alert and no result (no record), malformed for the bare form', () => {
    const form = PAGE.slice(0, PAGE.indexOf('<div class="container content-container ccass-search-container')) + '</form></body></html>'
    const alerted = form.replace('<input type="hidden" name="alertMsg" id="alertMsg" />', '<input type="hidden" name="alertMsg" id="alertMsg" value="No match record found." />')
    expect(failureKind(() => parseCcass(alerted, PETRO))).toBe('empty')
    expect(() => parseCcass(alerted, PETRO)).toThrow(/No match record found/)
    expect(failureKind(() => parseCcass(form, PETRO))).toBe('malformed')
  })
})

describe('the search form', () => {
  it('posts back the form\'s hidden state with btnSearch, the newest date it offers and the five-digit code', () => {
    const body = new URLSearchParams(searchBody(readForm(PAGE), '00700'))
    expect(Object.fromEntries(body)).toEqual({
      __EVENTTARGET: 'btnSearch', __EVENTARGUMENT: '', __VIEWSTATE: '/wEPDwUKMTY0ODYwNTA0OWRkM79k2SfZ+VkDy88JRhbk+XZIdM0=',
      __VIEWSTATEGENERATOR: '3B6E1ECD', __EVENTVALIDATION: '/wEdAAdtFULLXu4cXg1Ju23kPkBZVobCVrNyCM2j+bEk3ygqmn1KZjrC',
      today: '20260623', sortBy: 'shareholding', sortDirection: 'desc', alertMsg: '', txtShareholdingDate: '2026/06/20', txtStockCode: '00700',
      txtStockName: '', txtParticipantID: '', txtParticipantName: '', txtSelPartID: '',
    })
  })

  it('refuses a form without a view state', () => {
    expect(failureKind(() => readForm(PAGE.replace(/name="__VIEWSTATE"/, 'name="__OTHER"')))).toBe('malformed')
  })
})

describe('fetchCcass against the emulator', () => {
  it('GETs the form, POSTs the search and reads a record that adds up to the model\'s issued shares', async () => {
    const tencent = market.byCode('hk00700')!
    const s = await fetchCcass(ctx, parseSymbol('hk00700'))
    // Friday 2026-11-20 16:00: the newest record is Thursday's.
    expect(s).toMatchObject({ date: '2026-11-19', code: '00700', issued: tencent.totalShares })
    expect(s.participants.length).toBeGreaterThan(10)
    expect(s.participants.map((p) => p.id)).toEqual(expect.arrayContaining(['C00019', 'C00100', 'C00010', 'A00003', 'A00004']))
    expect(s.total.shareholding).toBeLessThan(s.issued)
  })

  it('is empty for a stock CCASS has no record of', async () => {
    await expect(fetchCcass(ctx, parseSymbol('hk00001'))).rejects.toMatchObject({ kind: 'empty' })
  })

  it('is malformed when the POST comes back as the bare form (no view state sent), http when the view state is refused', async () => {
    const form = await (await ctx.fetch(CCASS_URL)).text()
    const post = (body: string) => ctx.fetch(CCASS_URL, { method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded' } })
    const noState = searchBody(readForm(form), '00700').replace(/__VIEWSTATE=[^&]*&/, '')
    expect(failureKind(() => parseCcass('', '00700'))).toBe('malformed')
    const bare = await (await post(noState)).text()
    expect(failureKind(() => parseCcass(bare, '00700'))).toBe('malformed')
    const res = await post(searchBody(readForm(form), '00700').replace(/__VIEWSTATE=[^&]*&/, '__VIEWSTATE=forged&'))
    expect(res.status).toBe(500)
    const { ctx: forged } = fakeContext((_url, headers) => (headers['content-type'] ? { status: 500, body: 'Runtime Error' } : { body: form }))
    await expect(fetchCcass(forged, parseSymbol('hk00700'))).rejects.toMatchObject({ kind: 'http' })
  })

  it('refuses a code that is not an HK stock', async () => {
    await expect(fetchCcass(ctx, parseSymbol('sh600519'))).rejects.toMatchObject({ kind: 'unsupported' })
  })
})
