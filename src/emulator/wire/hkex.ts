/**
 * HKEXnews' CCASS Shareholding Search (`www3.hkexnews.hk/sdw/search/searchsdw.aspx`) as the
 * emulator answers it: an ASP.NET WebForms page. A GET is the search form: the hidden inputs
 * `__VIEWSTATE`, `__VIEWSTATEGENERATOR`, `__EVENTVALIDATION`, `today` (yyyymmdd), `sortBy`,
 * `sortDirection`, `alertMsg`, and the text inputs, `txtShareholdingDate` holding the newest
 * record's date `YYYY/MM/DD`. The search is a form POST of those with `__EVENTTARGET=btnSearch`,
 * `txtShareholdingDate` and `txtStockCode` (five digits); the answer is the same form (the date
 * input now holding the date actually shown: a Sunday or HK holiday shows the last earlier record)
 * followed by the result: `div.ccass-search-summary-table` with one `div.ccass-search-datarow` per
 * category (`div.summary-category`, `div.shareholding div.value`, `div.number-of-participants
 * div.value`, `div.percent-of-participants div.value`), the Total row also classed
 * `ccass-search-total`, `div.ccass-search-remarks div.summary-value` the issued shares; then
 * `#pnlResultNormal table tbody tr`, cells `td.col-participant-id`, `col-participant-name`,
 * `col-address`, `col-shareholding`, `col-shareholding-percent`, each a `div.mobile-list-heading` and a
 * `div.mobile-list-body`. Numbers with thousands separators, percents with two decimals and `%`.
 *
 * Markup as public CCASS scrapers read it (HKEXCCASSReader.cs quotes the summary rows; several
 * Python scrapers the table cells, `text-right` on the number cells and the `ccass-search-total`
 * row) and as a captured page of the sibling Stock Connect search shows the page around it
 * (techloghub/techlog views/temp/hkexnewshk.php: hidden inputs, `mobile-list-*` cells).
 * **Ours** (no capture found): the words of `alertMsg` for a search without a record or with a
 * date out of range, and what a POST without `__VIEWSTATE` gets: the empty form, as for a GET (ASP.NET
 * sees no postback); a `__VIEWSTATE` the site did not issue is ASP.NET's error page, HTTP 500.
 */
import { addDays, beijing, compact, isValidDate } from '../../domain/dates'
import { CCASS_RETENTION_DAYS, ccassRecord, ccassRecordDate, type CcassRecord } from '../market/ccass'
import type { EmuInstrument, MarketModel } from '../market/types'
import { notFound, textResponse } from './respond'

export const CCASS_PATH = '/sdw/search/searchsdw.aspx'

/** What this site issues as view state and event validation; any other `__VIEWSTATE` fails its MAC check. */
const VIEWSTATE = '/wEPDwUKMTY0ODYwNTA0OWRkM79k2SfZ+VkDy88JRhbk+XZIdM0='
const VIEWSTATE_GENERATOR = '3B6E1ECD'
const EVENT_VALIDATION = '/wEdAAdbi0fkSwOpxdk7D3VmAVL8Pq1qSwy6J6s5a8hgCQ7sF5m8H2Uq9mVlaCVBXm4S4k1Wc2Cn3Lw='

/** alertMsg when the search finds no record (ours). */
export const NO_RECORD = 'No match record found.'
const DATE_OUT_OF_RANGE = 'The shareholding date is out of range. Records of the past 12 months are kept.'

const html = (body: string, status = 200) => textResponse(body, 'text/html; charset=utf-8', status)
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/'/g, '&#39;')
const slashed = (date: string) => date.replaceAll('-', '/')
const thousands = (n: number) => Math.round(n).toLocaleString('en-US')
/** Percent of the issued shares, cut to two decimals as the one quoted page figure is (83.708% printed 83.70%). */
/** Hundredths of a percent, cut (not rounded), as the site prints them. */
const hundredths = (part: number, whole: number) => Math.floor((part / whole) * 10000 + 1e-9)
const percent = (part: number, whole: number) => `${(hundredths(part, whole) / 100).toFixed(2)}%`

interface FormState {
  today: string
  /** `YYYY/MM/DD` or empty. */
  date: string
  code: string
  name: string
  alert: string
}

function hidden(name: string, value: string): string {
  return `<input type="hidden" name="${name}" id="${name}" value="${esc(value)}" />`
}

function textInput(name: string, value: string, cls: string): string {
  return `<input name="${name}" type="text" value="${esc(value)}" id="${name}" class="${cls}" />`
}

function page(form: FormState, result: string): string {
  return `


<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
<html xmlns="http://www.w3.org/1999/xhtml" class="news-hkex">
<head><title>
\tCCASS Shareholding Search
</title><meta charset="UTF-8" /><meta name="viewport" content="width=device-width, initial-scale=1" /><link href="css/sdw.css?v=20180409" rel="stylesheet" type="text/css" />
</head>
<body>
    <form name="form1" method="post" action="./searchsdw.aspx" id="form1" style="text-align: left;">
<div>
${hidden('__EVENTTARGET', '')}
${hidden('__EVENTARGUMENT', '')}
${hidden('__VIEWSTATE', VIEWSTATE)}
</div>

<div>

\t${hidden('__VIEWSTATEGENERATOR', VIEWSTATE_GENERATOR)}
\t${hidden('__EVENTVALIDATION', EVENT_VALIDATION)}
</div>
        ${hidden('today', form.today)}
        ${hidden('sortBy', 'shareholding')}
        ${hidden('sortDirection', 'desc')}
        <input type="hidden" name="alertMsg" id="alertMsg" value="${esc(form.alert)}" />
        <div class="content-container content-container-reset">
            <main class="common-page-content">
            <div class="container">
                <div class="section-panel">
                    <div class="section-panel-body">
                        <div class="filter__container-ccass">
                            <div class="filter__inputGroup">
                                <div class="form-input-text">${textInput('txtShareholdingDate', form.date, 'input-searchDate active')}</div>
                                <div class="form-input-text">${textInput('txtStockCode', form.code, 'input-stockCode')}</div>
                                <div class="form-input-text">${textInput('txtStockName', form.name, 'input-stockName')}</div>
                                <div class="form-input-text">${textInput('txtParticipantID', '', 'input-participantID')}</div>
                                <div class="form-input-text">${textInput('txtParticipantName', '', 'input-participantName')}</div>
                                <div class="form-input-text">${textInput('txtSelPartID', '', 'input-selPartID')}</div>
                            </div>
                            <div class="filter__buttonGroup">
                                <a id="btnSearch" href="javascript:__doPostBack(&#39;btnSearch&#39;,&#39;&#39;)" class="btn-blue">Search</a>
                            </div>
                        </div>
                    </div>
                </div>
            </div>
            </main>
        </div>${result}
    </form>
</body>
</html>
`
}

/** One summary row; the Total's percent is the sum of the categories' printed ones (00700 on 2019-10-29: 68.92% + 0.00% + 0.03% = 68.95%, not 68.96%). */
function summaryRow(category: string, shares: number, participants: number, issued: number, total = false, printed = percent(shares, issued)): string {
  return `
                            <div class="ccass-search-datarow${total ? ' ccass-search-total' : ''}">
                                <div class="summary-category">${category}</div>
                                <div class="shareholding">
                                    <div class="header">Shareholding in CCASS </div>
                                    <div class="value">${thousands(shares)}</div>
                                </div>
                                <div class="number-of-participants">
                                    <div class="header">Number of Participants</div>
                                    <div class="value">${thousands(participants)}</div>
                                </div>
                                <div class="percent-of-participants">
                                    <div class="header">% of the total number of Issued Shares/ Warrants/ Units</div>
                                    <div class="value">${printed}</div>
                                </div>
                            </div>`
}

function cell(cls: string, heading: string, body: string): string {
  return `
                                            <td class="${cls}">
                                                <div class="mobile-list-heading">${heading}:</div>
                                                <div class="mobile-list-body">${body}</div>
                                            </td>`
}

function result(rec: CcassRecord): string {
  const total = rec.intermediaries.shares + rec.consenting.shares + rec.nonConsenting.shares
  const count = rec.intermediaries.participants + rec.consenting.participants + rec.nonConsenting.participants
  const parts = [rec.intermediaries, rec.consenting, rec.nonConsenting]
  const rows = rec.holdings
    .map(
      (h) => `
                                        <tr>${cell('col-participant-id', 'Participant ID', h.id)}${cell('col-participant-name', 'Name of CCASS Participant (* for Consenting Investor Participants )', esc(h.name))}${cell('col-address', 'Address', esc(h.address))}${cell('col-shareholding text-right', 'Shareholding', thousands(h.shares))}${cell('col-shareholding-percent text-right', '% of the total number of Issued Shares/ Warrants/ Units', percent(h.shares, rec.issued))}
                                        </tr>`
    )
    .join('')
  return `
        <div class="container content-container ccass-search-container content-container-reset">
            <main class="ccass-search search-result-page">
            <div class="ccass-search-content">
                <div class="ccass-search-result">
                    <div id="pnlResultSummary">
                        <div class="ccass-search-summary-table ">
                            <div class="ccass-search-headerrow">
                                <div class="shareholding"><div class="header">Shareholding in CCASS </div></div>
                                <div class="number-of-participants"><div class="header">Number of Participants</div></div>
                                <div class="percent-of-participants"><div class="header">% of the total number of Issued Shares/ Warrants/ Units</div></div>
                            </div>${summaryRow('Market Intermediaries', rec.intermediaries.shares, rec.intermediaries.participants, rec.issued)}${summaryRow('Consenting Investor Participants', rec.consenting.shares, rec.consenting.participants, rec.issued)}${summaryRow('Non-consenting Investor Participants', rec.nonConsenting.shares, rec.nonConsenting.participants, rec.issued)}${summaryRow('Total', total, count, rec.issued, true, `${(parts.reduce((sum, p) => sum + hundredths(p.shares, rec.issued), 0) / 100).toFixed(2)}%`)}
                            <div class="ccass-search-remarks">
                                <div class="summary-header">Total number of Issued Shares/Warrants/Units (last updated figure)</div>
                                <div class="summary-value">${thousands(rec.issued)}</div>
                            </div>
                        </div>
                        <hr />
                    </div>
                    <div id="pnlResultNormal">
                        <h2 class="ccass-heading">Detail of Market Intermediaries/Consenting Investor Participants:</h2>
                        <div class="search-details-table-container table-mobile-list-container">
                            <table class="table table-scroll table-sort table-mobile-list" data-sortlist="[[3, 1]]">
                                <thead>
                                    <tr>
                                        <th data-column-class="col-participant-id" class="col-participant-id">Participant ID</th>
                                        <th data-column-class="col-participant-name" class="col-participant-name">Name of CCASS Participant (* for Consenting Investor Participants )</th>
                                        <th data-column-class="col-address" class="col-address">Address</th>
                                        <th data-column-class="col-shareholding" class="col-shareholding text-right">Shareholding</th>
                                        <th data-column-class="col-shareholding-percent" class="col-shareholding-percent text-right">% of the total number of Issued Shares/ Warrants/ Units</th>
                                    </tr>
                                </thead>
                                <tbody>${rows}
                                </tbody>
                            </table>
                        </div>
                    </div>
                </div>
            </div>
            </main>
        </div>`
}

/** HK today (the clock's Beijing date: both are UTC+8) and the newest record the site shows: yesterday's. */
function dates(now: number): { today: string; newest: string } {
  const today = beijing(now).date
  return { today, newest: ccassRecordDate(addDays(today, -1)) }
}

const formOf = (now: number, alert = ''): FormState => {
  const { today, newest } = dates(now)
  return { today: compact(today), date: slashed(newest), code: '', name: '', alert }
}

const hkStock = (market: MarketModel, code: string): EmuInstrument | undefined => {
  const inst = /^\d{5}$/.test(code) ? market.byCode('hk' + code) : undefined
  return inst?.kind === 'hk' ? inst : undefined
}

/** ASP.NET's answer to a view state whose MAC does not check. */
const VIEWSTATE_ERROR = `<!DOCTYPE html>
<html>
    <head>
        <title>Runtime Error</title>
    </head>
    <body bgcolor="white">
            <span><H1>Server Error in '/' Application.<hr width=100% size=1 color=silver></H1>
            <h2> <i>Runtime Error</i> </h2></span>
            <b> Description: </b>An application error occurred on the server. The current custom error settings for this application prevent the details of the application error from being viewed remotely (for security reasons).
    </body>
</html>
`

/** Answers one request to the CCASS search; 404 for any other path of the host. */
export async function handleHkex(url: URL, request: Request, market: MarketModel, now: number): Promise<Response> {
  if (url.pathname !== CCASS_PATH) return notFound()
  if (request.method !== 'POST') return html(page(formOf(now), ''))
  // Read as bytes: the body is form-encoded ASCII, and workerd warns on .text() of a non-text type.
  const form = new URLSearchParams(new TextDecoder().decode(await request.arrayBuffer()))
  const viewstate = form.get('__VIEWSTATE')
  // No view state: not a postback, the plain form; one the site did not issue: its error page.
  if (viewstate === null) return html(page(formOf(now), ''))
  if (viewstate !== VIEWSTATE) return html(VIEWSTATE_ERROR, 500)
  if (form.get('__EVENTTARGET') !== 'btnSearch') return html(page(formOf(now), ''))
  const { today, newest } = dates(now)
  const asked = (form.get('txtShareholdingDate') ?? '').trim().replaceAll('/', '-')
  const code = (form.get('txtStockCode') ?? '').trim()
  const state: FormState = { today: compact(today), date: form.get('txtShareholdingDate') ?? '', code, name: '', alert: '' }
  if (!isValidDate(asked) || asked > newest || asked < addDays(today, -CCASS_RETENTION_DAYS)) {
    return html(page({ ...state, alert: DATE_OUT_OF_RANGE }, ''))
  }
  const inst = hkStock(market, code)
  const rec = inst ? ccassRecord(inst, asked) : null
  if (!inst || !rec) return html(page({ ...state, alert: NO_RECORD }, ''))
  return html(page({ ...state, date: slashed(rec.date), name: inst.name }, result(rec)))
}

/** The `empty` fault's answer, to the GET and the POST alike: the form saying it found no record. */
export function hkexEmpty(url: URL, _market: MarketModel, now: number): Response | undefined {
  if (url.pathname !== CCASS_PATH) return undefined
  return html(page(formOf(now, NO_RECORD), ''))
}
