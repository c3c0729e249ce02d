/**
 * HKEXnews' CCASS Shareholding Search: who holds an HK stock in CCASS (HKEX's Central Clearing and
 * Settlement System) at a day's end. `https://www3.hkexnews.hk/sdw/search/searchsdw.aspx` is an
 * ASP.NET WebForms page: a GET gives the form with its hidden inputs (`__VIEWSTATE`,
 * `__VIEWSTATEGENERATOR`, `__EVENTVALIDATION`, `today`, `sortBy`, `sortDirection`, `alertMsg`) and
 * `txtShareholdingDate` (`YYYY/MM/DD`, the newest record); the search POSTs them back
 * (x-www-form-urlencoded) with `__EVENTTARGET=btnSearch`, the date and `txtStockCode` (five
 * digits), as public scrapers send it (HKEXCCASSReader.cs in C#; several Python CCASS scrapers).
 * A Sunday or HK holiday shows the last earlier record, and the answer's `txtShareholdingDate`
 * holds the date shown. Records are kept 12 months.
 *
 * The answer (markup as those scrapers read it): `div.ccass-search-summary-table` with one
 * `div.ccass-search-datarow` per category (`div.summary-category`: Market Intermediaries,
 * Consenting / Non-consenting Investor Participants, Total; `div.shareholding div.value`,
 * `div.number-of-participants div.value`, `div.percent-of-participants div.value` with `%`),
 * `.ccass-search-remarks .summary-value` the issued shares; then `#pnlResultNormal table tbody tr`,
 * cells `td.col-participant-id`, `col-participant-name`, `col-address`, `col-shareholding`,
 * `col-shareholding-percent`, the value in each cell's `div.mobile-list-body`. Numbers carry
 * thousands separators. Non-consenting investor participants are counted in the summary but not
 * listed (HKEX lists a participant only if it is an intermediary or consents), so the listed rows
 * add up to the Total less that category.
 *
 * Strict: the categories must add up to the Total (shares and participants), the listed rows to
 * the Total less the non-consenting category, every percent must agree with shares ÷ issued
 * shares to within one unit of its last printed decimal (HKEXCCASSReader.cs quotes 1,546,313,565
 * of 1,847,269,704 as 83.70%, i.e. 83.708% cut, not rounded; the Total's percent is the sum of the
 * categories' printed ones, as real pages of 2019 show), and the page must be of the stock
 * asked. Anything else is `malformed`. A form that comes back with an `alertMsg` and no result
 * (no record of the stock or date) is `empty`.
 */
import type { Instrument } from '../../domain/instrument'
import { isValidDate } from '../../domain/dates'
import { ChannelError, empty, malformed, unsupported } from '../errors'
import { fetchText } from '../http'
import type { ChannelContext } from '../types'
import { byClass, byId, byTag, hasClass, inputs, textOf, type Element } from '../html'

const CHANNEL = 'hkex'
export const CCASS_URL = 'https://www3.hkexnews.hk/sdw/search/searchsdw.aspx'

/** The summary's categories, by what their label says (English or Chinese page). */
type CcassCategoryKey = 'market_intermediaries' | 'consenting_investor_participants' | 'non_consenting_investor_participants' | 'total'

/** One summary row as printed; null where the page leaves the value blank. */
interface CcassCategory {
  key: CcassCategoryKey
  /** The label as the page prints it. */
  label: string
  shareholding: number | null
  participants: number | null
  /** Percent of the issued shares as printed. */
  percent: number | null
}

/** A category that is a part of the Total. */
type PartCategory = CcassCategory & { key: Exclude<CcassCategoryKey, 'total'> }

/** One listed participant. */
interface CcassParticipant {
  /** Participant ID (a letter and five digits); null when the page prints none. */
  id: string | null
  name: string
  address: string | null
  shareholding: number
  percent: number | null
}

/** One stock's CCASS record of one day. */
export interface CcassSnapshot {
  /** The record's date, `YYYY-MM-DD` (the date shown, not necessarily the date asked). */
  date: string
  /** Five-digit stock code. */
  code: string
  name: string | null
  /** Total issued shares as the page states them (the "last updated figure"). */
  issued: number
  /** The categories other than Total, in page order. */
  categories: PartCategory[]
  total: CcassCategory
  /** Listed participants, largest holding first. */
  participants: CcassParticipant[]
}

/** The hidden and text inputs of the search form. */
export type CcassForm = Map<string, string>

const where = (code: string) => `CCASS ${code}`

/** `12,345` or `12345` → 12345; blank → null; anything else throws. */
function count(text: string, what: string): number | null {
  if (text === '') return null
  if (!/^\d{1,3}(,\d{3})*$|^\d+$/.test(text)) throw malformed(CHANNEL, `${what}: ${JSON.stringify(text)} is not a number of shares`)
  return Number(text.replaceAll(',', ''))
}

/** `83.70%` → 83.7 with its printed decimals; blank → null. */
function pct(text: string, what: string): { value: number; decimals: number } | null {
  if (text === '') return null
  const m = /^(\d{1,3}(?:\.(\d+))?)\s*%$/.exec(text)
  if (!m) throw malformed(CHANNEL, `${what}: ${JSON.stringify(text)} is not a percent`)
  return { value: Number(m[1]), decimals: m[2]?.length ?? 0 }
}

/** Throws unless `printed` is shares ÷ issued in percent to within one unit of its last decimal. */
function agrees(printed: { value: number; decimals: number } | null, shares: number | null, issued: number, what: string): number | null {
  if (printed === null) return null
  if (shares === null) throw malformed(CHANNEL, `${what}: a percent without shares`)
  const exact = (shares / issued) * 100
  if (Math.abs(printed.value - exact) > 10 ** -printed.decimals + 1e-9) {
    throw malformed(CHANNEL, `${what}: ${printed.value}% is not ${shares} of ${issued} issued shares (${exact.toFixed(4)}%)`)
  }
  return printed.value
}

/**
 * The Total's percent is the sum of the categories' printed (cut) percents, not its own quotient:
 * 00001 on 2019-10-30 prints 66.13% + 0.00% + 0.38% = 66.51% for 2,565,274,274 of 3,856,240,500
 * (66.5227%). With every category's percent printed, the Total must be their sum; else its quotient.
 */
function totalPercent(printed: { value: number; decimals: number } | null, parts: CcassCategory[], shares: number | null, issued: number, what: string): number | null {
  if (printed === null || parts.length === 0 || parts.some((p) => p.percent === null)) return agrees(printed, shares, issued, what)
  const sum = parts.reduce((s, p) => s + p.percent!, 0)
  if (Math.abs(printed.value - sum) > 10 ** -printed.decimals / 2) throw malformed(CHANNEL, `${what}: ${printed.value}% is not the categories' ${sum.toFixed(printed.decimals)}%`)
  if (shares !== null) agreesWithin(printed.value, shares, issued, parts.length * 10 ** -printed.decimals, what)
  return printed.value
}

/** Throws unless `value` % is shares ÷ issued to within `tolerance` points. */
function agreesWithin(value: number, shares: number, issued: number, tolerance: number, what: string): void {
  const exact = (shares / issued) * 100
  if (Math.abs(value - exact) > tolerance + 1e-9) throw malformed(CHANNEL, `${what}: ${value}% is not ${shares} of ${issued} issued shares (${exact.toFixed(4)}%)`)
}

function categoryKey(label: string): CcassCategoryKey | null {
  if (/^total$|^總數$|^总数$/i.test(label)) return 'total'
  if (/intermediar|中介/i.test(label)) return 'market_intermediaries'
  if (/non-?\s*consenting|不願意|不愿意/i.test(label)) return 'non_consenting_investor_participants'
  if (/consenting|願意|愿意/i.test(label)) return 'consenting_investor_participants'
  return null
}

/** The one element `tag.cls` inside `html`; none or several throw. */
function one(html: string, tag: string, cls: string, what: string): Element {
  const found = byClass(html, tag, cls)
  if (found.length !== 1) throw malformed(CHANNEL, `${what}: ${found.length} ${tag}.${cls}`)
  return found[0]
}

/** The text of `div.<cls> div.value` in a summary row. */
const summaryValue = (row: string, cls: string, what: string) => textOf(one(one(row, 'div', cls, what).inner, 'div', 'value', what).inner)

/** The summary: issued shares, then each category row, the Total last; every percent checked against shares ÷ issued. */
function readSummary(table: string, code: string): { categories: PartCategory[]; total: CcassCategory; issued: number } {
  const w = where(code)
  const remarks = one(table, 'div', 'ccass-search-remarks', `${w} summary`)
  const issued = count(textOf(one(remarks.inner, 'div', 'summary-value', `${w} issued shares`).inner), `${w} issued shares`)
  if (issued === null || issued <= 0) throw malformed(CHANNEL, `${w}: no issued shares`)
  const rows: CcassCategory[] = []
  for (const row of byClass(table, 'div', 'ccass-search-datarow')) {
    const label = textOf(one(row.inner, 'div', 'summary-category', `${w} summary row`).inner)
    const key = categoryKey(label)
    if (!key) throw malformed(CHANNEL, `${w}: unknown summary category ${JSON.stringify(label)}`)
    if (rows.some((r) => r.key === key)) throw malformed(CHANNEL, `${w}: summary category ${JSON.stringify(label)} twice`)
    const what = `${w} ${label}`
    const shareholding = count(summaryValue(row.inner, 'shareholding', what), `${what} shareholding`)
    const printed = pct(summaryValue(row.inner, 'percent-of-participants', what), `${what} percent`)
    rows.push({
      key,
      label,
      shareholding,
      participants: count(summaryValue(row.inner, 'number-of-participants', what), `${what} participants`),
      percent: key === 'total' ? totalPercent(printed, rows, shareholding, issued, what) : agrees(printed, shareholding, issued, what),
    })
  }
  const total = rows.at(-1)
  if (!total || total.key !== 'total' || rows.length < 2) throw malformed(CHANNEL, `${w}: the summary does not end in one Total after its categories`)
  if (total.shareholding === null) throw malformed(CHANNEL, `${w}: the Total has no shareholding`)
  const categories = rows.slice(0, -1).filter((r): r is PartCategory => r.key !== 'total')
  return { categories, total, issued }
}

/** The listed participants of `#pnlResultNormal`'s table, in page order, each checked on its own. */
function readParticipants(panel: string, code: string, issued: number): CcassParticipant[] {
  const w = where(code)
  const bodies = byTag(panel, 'tbody')
  if (bodies.length !== 1) throw malformed(CHANNEL, `${w}: ${bodies.length} participant table bodies`)
  const seen = new Set<string>()
  return byTag(bodies[0].inner, 'tr').map((tr, k) => {
    const cells = byTag(tr.inner, 'td')
    const cellText = (cls: string, required: boolean) => {
      const found = cells.filter((td) => hasClass(td.attrs, cls))
      if (found.length !== 1) {
        if (!required && found.length === 0) return null
        throw malformed(CHANNEL, `${w} participant row ${k + 1}: ${found.length} td.${cls}`)
      }
      return textOf(one(found[0].inner, 'div', 'mobile-list-body', `${w} participant row ${k + 1} ${cls}`).inner)
    }
    const id = cellText('col-participant-id', true) || null
    const name = cellText('col-participant-name', true)!
    const what = `${w} participant ${id ?? name}`
    if (id !== null && !/^[A-Z]\d{5}$/.test(id)) throw malformed(CHANNEL, `${what}: ${JSON.stringify(id)} is no participant ID`)
    if (id !== null && seen.has(id)) throw malformed(CHANNEL, `${what} listed twice`)
    if (id !== null) seen.add(id)
    if (!name) throw malformed(CHANNEL, `${what}: no name`)
    const shareholding = count(cellText('col-shareholding', true)!, `${what} shareholding`)
    if (shareholding === null) throw malformed(CHANNEL, `${what}: no shareholding`)
    const percent = agrees(pct(cellText('col-shareholding-percent', true)!, `${what} percent`), shareholding, issued, what)
    return { id, name, address: cellText('col-address', false) || null, shareholding, percent }
  })
}

/**
 * Reads a search answer for the stock `code` (five digits). Throws `empty` when the form came back
 * with an `alertMsg` and no result, `malformed` for anything that does not add up (see the module).
 */
export function parseCcass(html: string, code: string): CcassSnapshot {
  const w = where(code)
  try {
    const form = inputs(html)
    const tables = byClass(html, 'div', 'ccass-search-summary-table')
    if (tables.length === 0) {
      const alert = (form.get('alertMsg') ?? '').trim()
      if (alert) throw empty(CHANNEL, `${w}: ${alert}`)
      throw malformed(CHANNEL, `${w}: the search form came back without a result or a message (view state refused?)`)
    }
    if (tables.length > 1) throw malformed(CHANNEL, `${w}: ${tables.length} summary tables`)
    const shown = (form.get('txtStockCode') ?? '').trim()
    if (shown !== code) throw malformed(CHANNEL, `${w}: the page is of stock ${JSON.stringify(shown)}`)
    const dateText = (form.get('txtShareholdingDate') ?? '').trim()
    const date = dateText.replaceAll('/', '-')
    if (!/^\d{4}\/\d{2}\/\d{2}$/.test(dateText) || !isValidDate(date)) throw malformed(CHANNEL, `${w}: shareholding date ${JSON.stringify(dateText)}`)

    const { categories, total, issued } = readSummary(tables[0].inner, code)
    const sum = (f: (c: CcassCategory) => number | null) => categories.reduce((s, c) => s + (f(c) ?? 0), 0)
    if (sum((c) => c.shareholding) !== total.shareholding) throw malformed(CHANNEL, `${w}: the categories hold ${sum((c) => c.shareholding)} shares, the Total ${total.shareholding}`)
    if (total.participants !== null && categories.every((c) => c.participants !== null) && sum((c) => c.participants) !== total.participants) {
      throw malformed(CHANNEL, `${w}: the categories count ${sum((c) => c.participants)} participants, the Total ${total.participants}`)
    }
    if (total.shareholding! > issued) throw malformed(CHANNEL, `${w}: ${total.shareholding} shares in CCASS of ${issued} issued`)

    const panel = byId(html, 'div', 'pnlResultNormal')
    if (!panel) throw malformed(CHANNEL, `${w}: a summary without #pnlResultNormal`)
    const participants = readParticipants(panel.inner, code, issued)
    const unlisted = categories.find((c) => c.key === 'non_consenting_investor_participants')
    const listedShares = total.shareholding! - (unlisted?.shareholding ?? 0)
    const got = participants.reduce((s, p) => s + p.shareholding, 0)
    if (got !== listedShares) throw malformed(CHANNEL, `${w}: the listed participants hold ${got} shares, the Total less non-consenting investors ${listedShares}`)
    if (total.participants !== null && (unlisted === undefined || unlisted.participants !== null)) {
      const listed = total.participants - (unlisted?.participants ?? 0)
      if (participants.length !== listed) throw malformed(CHANNEL, `${w}: ${participants.length} participants listed, the summary counts ${listed}`)
    }
    return {
      date,
      code,
      name: (form.get('txtStockName') ?? '').trim() || null,
      issued,
      categories,
      total,
      participants: participants.sort((a, b) => b.shareholding - a.shareholding),
    }
  } catch (e) {
    if (e instanceof ChannelError) throw e
    throw malformed(CHANNEL, `${w}: ${e instanceof Error ? e.message : String(e)}`)
  }
}

/** The form's inputs; a form without a view state or a shareholding date is `malformed`. */
export function readForm(html: string): CcassForm {
  const form = inputs(html)
  if (!form.get('__VIEWSTATE')) throw malformed(CHANNEL, 'the CCASS search form has no __VIEWSTATE')
  if (!/^\d{4}\/\d{2}\/\d{2}$/.test((form.get('txtShareholdingDate') ?? '').trim())) throw malformed(CHANNEL, 'the CCASS search form has no shareholding date')
  return form
}

/** The search POST's body: the form's hidden state, the newest date it offers, and the stock. */
export function searchBody(form: CcassForm, code: string): string {
  const body = new URLSearchParams({ __EVENTTARGET: 'btnSearch', __EVENTARGUMENT: '', __VIEWSTATE: form.get('__VIEWSTATE') ?? '' })
  for (const name of ['__VIEWSTATEGENERATOR', '__EVENTVALIDATION']) if (form.has(name)) body.set(name, form.get(name)!)
  body.set('today', form.get('today') ?? '')
  body.set('sortBy', 'shareholding')
  body.set('sortDirection', 'desc')
  body.set('alertMsg', '')
  body.set('txtShareholdingDate', form.get('txtShareholdingDate')!.trim())
  body.set('txtStockCode', code)
  for (const name of ['txtStockName', 'txtParticipantID', 'txtParticipantName', 'txtSelPartID']) body.set(name, '')
  return body.toString()
}

/** The newest CCASS record of an HK stock: the form (GET), then the search (POST). */
export async function fetchCcass(ctx: ChannelContext, inst: Instrument): Promise<CcassSnapshot> {
  if (inst.kind !== 'hk') throw unsupported(CHANNEL, `CCASS is for HK stocks, not ${inst.code}`)
  const headers = { Accept: 'text/html,application/xhtml+xml', Referer: CCASS_URL }
  const form = readForm(await fetchText(ctx, CHANNEL, CCASS_URL, { headers }))
  const page = await fetchText(ctx, CHANNEL, CCASS_URL, {
    headers: { ...headers, 'Content-Type': 'application/x-www-form-urlencoded' },
    post: searchBody(form, inst.symbol),
  })
  return parseCcass(page, inst.symbol)
}
