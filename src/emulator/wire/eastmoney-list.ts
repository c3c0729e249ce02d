/**
 * `push2 …/api/qt/clist/get` as the emulator answers it: every stock an `fs` filter selects among
 * those listed by the clock's Beijing date, ordered by `fid` (`po=1` descending, `po=0`
 * ascending), page `pn` of `pz` rows, each row the stock's live state in list-namespace fields
 * (halted: `"-"` prices). The A-share stock boards, the industry boards (`m:90 t:2`), HK
 * (`m:128 t:3`) and US shares (`m:105|106|107`) carry `fs` tags; `f:!50` (not a hidden board) holds for every instrument; a clause with any other
 * term (flags) selects nothing. Fields beyond the live quote are computed only when asked for: `f109`
 * (5-session change %), `f24` (60-session) and `f25` (year to date) from the daily bars, `f9`/`f115` (PE dynamic / TTM) and `f23` (PB) from
 * the fundamentals (market/valuation.ts), as every other view prints them. `b:BK0477` selects a
 * board's constituents (industry or concept, market/business.ts); `m:90 t:3` lists the concept
 * boards, code and name only. See upstreams.md §3.1, §5.11 and src/channels/README.md.
 */
import { beijing } from '../../domain/dates'
import type { Board } from '../../domain/instrument'
import type { EmuInstrument, MarketModel } from '../market/types'
import { conceptBoards, inBoard } from '../market/business'
import { boardMembers } from '../market/industries'
import { hasTraded } from '../market/quote'
import { flowFields } from './eastmoney-flow'
import { foreignValuation, isForeignStock } from '../market/foreign-valuation'
import { changeOverSessions, changeSinceYearStart } from '../market/period-change'
import { valuationAt } from '../market/valuation'
import { splitSecid } from './codes'
import { quoteFields, quoteRow, requestedFields } from './eastmoney-fields'
import { envelope } from './push2-envelope'
import { round } from './format'
import { Lru } from '../market/lru'
import { jsonResponse } from './respond'

export const CLIST_PATH = '/api/qt/clist/get'

/** `fs` tags: market number, security type and (Beijing) sub-type bitmask. */
interface Tags {
  m: number
  t: number
  s?: number
}

/** Each board's tags, as the all-A-shares filter `m:0 t:6,m:0 t:80,m:1 t:2,m:1 t:23,m:0 t:81 s:2048` names them. */
const BOARD_TAGS: Record<Board, Tags> = {
  'sh-main': { m: 1, t: 2 },
  star: { m: 1, t: 23 },
  'sz-main': { m: 0, t: 6 },
  chinext: { m: 0, t: 80 },
  bj: { m: 0, t: 81, s: 2048 },
}

/** Industry boards (行业板块), as `m:90 t:2` names them. */
const SECTOR_TAGS: Tags = { m: 90, t: 2 }

/**
 * HK and US shares. HK is market 128; every emulated HK listing is a main-board stock (`t:3`; the
 * HK-all filter `m:128 t:3,m:128 t:4,m:128 t:1,m:128 t:2` also names GEM and other types). US
 * listings are selected by their venue's market alone (`m:105` NASDAQ, `m:106` NYSE, `m:107`
 * AMEX, the secid's market), so they carry no type (0 matches no `t:` term).
 */
const HK_TAGS: Tags = { m: 128, t: 3 }
const usTags = (inst: EmuInstrument): Tags => ({ m: Number(splitSecid(inst.secid).market), t: 0 })

function tagsOf(inst: EmuInstrument): Tags {
  if (inst.kind === 'sector') return SECTOR_TAGS
  if (inst.kind === 'hk') return HK_TAGS
  if (inst.kind === 'us') return usTags(inst)
  return BOARD_TAGS[inst.board!]
}

/** A tag test, or `b:BK0477`: membership of an industry or concept board (business.ts). */
type Term = { key: keyof Tags; value: number } | { key: 'b'; board: string }

/** Page size when `pz` is missing or not a positive integer. */
const DEFAULT_PZ = 20

/** `fs` as OR-ed clauses of AND-ed terms; clauses using a term the emulator does not model are dropped. */
export function parseFs(fs: string): Term[][] {
  const clauses: Term[][] = []
  for (const clause of fs.split(',')) {
    const terms: Term[] = []
    for (const raw of clause.split(/[\s+]+/).filter(Boolean)) {
      // Flag 50 marks board entries Eastmoney hides from its board pages; no emulated board has it.
      if (raw === 'f:!50') continue
      const b = /^b:(BK\d{4})$/.exec(raw)
      const m = /^([mts]):(\d+)$/.exec(raw)
      if (!b && !m) {
        terms.length = 0
        break
      }
      terms.push(b ? { key: 'b', board: b[1] } : { key: m![1] as keyof Tags, value: Number(m![2]) })
    }
    if (terms.length) clauses.push(terms)
  }
  return clauses
}

const matches = (r: Listed, clause: readonly Term[]) =>
  clause.every((t) => (t.key === 'b' ? r.inst.kind === 'stock' && inBoard(r.inst, t.board) : t.key === 's' ? ((r.tags.s ?? 0) & t.value) !== 0 : r.tags[t.key] === t.value))

/** `m:90 t:3`: the concept boards (概念板块), which the emulator lists but does not quote. */
const isConceptList = (clause: readonly Term[]) => clause.some((t) => t.key === 'm' && t.value === 90) && clause.some((t) => t.key === 't' && t.value === 3)

interface Listed {
  inst: EmuInstrument
  tags: Tags
  /** `f12`, the sort key of `fid=f12`. */
  code: string
}

const cache = new WeakMap<MarketModel, Listed[]>()

/** The market's stocks and industry boards with their tags, ascending by code; built once per market. */
function stocks(market: MarketModel): Listed[] {
  let list = cache.get(market)
  if (!list) {
    list = market
      .instruments()
      .filter((i) => (i.kind === 'stock' && i.board !== undefined) || i.kind === 'sector' || isForeignStock(i))
      .map((inst) => ({ inst, tags: tagsOf(inst), code: splitSecid(inst.secid).code }))
      .sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : a.tags.m - b.tags.m))
    cache.set(market, list)
  }
  return list
}

const positiveInt = (raw: string | null, fallback: number) => {
  const n = Number(raw)
  return raw !== null && Number.isInteger(n) && n > 0 ? n : fallback
}

/**
 * Rows ordered by their `fid` value, descending when `desc`: rows without a value (`"-"`) last
 * either way, ties by code. `f12` (the code) needs no live state, so it stays cheap to page.
 */
function order(rows: Listed[], fid: string, desc: boolean, market: MarketModel, now: number): Listed[] {
  if (fid === 'f12') return desc ? [...rows].reverse() : rows
  const key = new Map(rows.map((r) => [r, quoteFields(market.live(r.inst, now))[fid] ?? '-']))
  const sign = desc ? -1 : 1
  return [...rows].sort((a, b) => {
    const x = key.get(a)!
    const y = key.get(b)!
    if (typeof x === 'number' !== (typeof y === 'number')) return typeof x === 'number' ? -1 : 1
    if (x !== y) return (x < y ? -1 : 1) * sign
    return a.code < b.code ? -1 : 1
  })
}

/**
 * The ordering of a sort by a live field, kept for the rest of the clock's minute: every field but
 * the quote time `f124` is a function of the minute's bar, so paging through a market sorted by,
 * say, main net inflow (`f62`) sorts it once, not once per page.
 */
const orderings = new WeakMap<MarketModel, Lru<string, Listed[]>>()
function orderedFor(market: MarketModel, now: number, fs: string, fid: string, desc: boolean, selected: () => Listed[]): Listed[] {
  if (fid === 'f12' || fid === 'f124') return order(selected(), fid, desc, market, now)
  let memo = orderings.get(market)
  if (!memo) orderings.set(market, (memo = new Lru(8)))
  const key = `${Math.floor(now / 60_000)}|${fs}|${fid}|${desc}`
  let hit = memo.get(key)
  if (!hit) memo.set(key, (hit = order(selected(), fid, desc, market, now)))
  return hit
}

/** Answers one `clist/get` request. */
export function handleClist(params: URLSearchParams, market: MarketModel, now: number): Response {
  const today = beijing(now).date
  const clauses = parseFs(params.get('fs') ?? '')
  if (clauses.some(isConceptList)) return conceptList(params)
  const selected = stocks(market).filter((r) => r.inst.listDate <= today && clauses.some((c) => matches(r, c)))
  // po=1 (what every client sends) is descending, po=0 ascending.
  const ordered = orderedFor(market, now, params.get('fs') ?? '', params.get('fid') || 'f12', params.get('po') !== '0', () => selected)
  const pz = positiveInt(params.get('pz'), DEFAULT_PZ)
  const pn = positiveInt(params.get('pn'), 1)
  const page = ordered.slice((pn - 1) * pz, pn * pz)
  if (page.length === 0) return jsonResponse(envelope(0, null))
  const ids = requestedFields(params)
  const fltt2 = params.get('fltt') === '2'
  // Code, market and name only (board constituents): no live state to compute.
  if (ids.every((id) => IDENTITY.has(id))) return listAnswer(params, selected.length, page.map((r) => identityRow(r, ids)))
  const rows = page.map((r) => {
    const q = market.live(r.inst, now)
    const row = quoteRow(q, ids, fltt2)
    // Fields that need more than the live quote, computed only when asked for.
    const scaled = (v: number | null) => (v === null ? '-' : fltt2 ? round(v, 2) : Math.round(v * 100))
    if ('f109' in row) row.f109 = scaled(changeOverSessions(market, r.inst, 5, now))
    if ('f24' in row) row.f24 = scaled(changeOverSessions(market, r.inst, 60, now))
    if ('f25' in row) row.f25 = scaled(changeSinceYearStart(market, r.inst, now))
    if (isForeignStock(r.inst) && ('f9' in row || 'f23' in row || 'f115' in row)) {
      // HK and US: one trailing P/E (f9 and f115 alike) and P/B from the catalogue's stated ratios.
      const v = foreignValuation(r.inst, q.bar.close)
      if ('f9' in row) row.f9 = scaled(v.pe)
      if ('f115' in row) row.f115 = scaled(v.pe)
      if ('f23' in row) row.f23 = scaled(v.pb)
    }
    if (r.inst.kind === 'sector' && BOARD_FIELDS.some((id) => id in row)) Object.assign(row, boardFields(market, r, now, ids))
    if (r.inst.kind === 'stock' && ('f9' in row || 'f23' in row || 'f115' in row)) {
      const v = valuationAt(market, r.inst, q.bar.close, now)
      if ('f9' in row) row.f9 = scaled(v.peDynamic)
      if ('f23' in row) row.f23 = scaled(v.pb)
      if ('f115' in row) row.f115 = scaled(v.peTtm)
    }
    return row
  })
  return listAnswer(params, selected.length, rows)
}

const IDENTITY = new Set(['f12', 'f13', 'f14'])

/** Board fields made of its constituents: main net inflow, and the leading stock's name, code and market. */
const BOARD_FIELDS = ['f62', 'f128', 'f140', 'f141'] as const

/**
 * An industry board's `f62` (the main net inflow of its traded constituents, summed) and its leader
 * (`f128` name, `f140` code, `f141` market: the constituent up most), as real board rows carry them
 * (test/fixtures/push2/clist-industry-boards-p1-2026-08-22.json: 航空机场 led by 海控B股 900945, market 1);
 * `"-"` while none has traded. Computed only for the fields asked.
 */
function boardFields(market: MarketModel, r: Listed, now: number, ids: readonly string[]): Record<string, string | number> {
  const today = beijing(now).date
  const quotes = boardMembers(market, r.code.replace(/^BK/, ''))
    .filter((m) => m.listDate <= today)
    .map((m) => market.live(m, now))
    .filter(hasTraded)
  const out: Record<string, string | number> = {}
  if (ids.includes('f62')) {
    const nets = quotes.map((q) => flowFields(q).f62).filter((v): v is number => typeof v === 'number')
    // Whole yuan, as real board rows send it (1583464.0, -255878871.0).
    out.f62 = nets.length ? Math.round(nets.reduce((a, b) => a + b, 0)) : '-'
  }
  if (ids.some((id) => id === 'f128' || id === 'f140' || id === 'f141')) {
    const change = (q: (typeof quotes)[number]) => (q.bar.close - q.bar.preClose) / q.bar.preClose
    const leader = quotes.reduce<(typeof quotes)[number] | null>((best, q) => (best === null || change(q) > change(best) ? q : best), null)
    const secid = leader ? splitSecid(leader.instrument.secid) : null
    if (ids.includes('f128')) out.f128 = leader ? leader.instrument.name : '-'
    if (ids.includes('f140')) out.f140 = secid ? secid.code : '-'
    if (ids.includes('f141')) out.f141 = secid ? Number(secid.market) : '-'
  }
  return out
}

function identityRow(r: Listed, ids: readonly string[]): Record<string, string | number> {
  const { market: m, code } = splitSecid(r.inst.secid)
  const all: Record<string, string | number> = { f12: code, f13: m, f14: r.inst.name }
  return Object.fromEntries(ids.map((id) => [id, all[id]]))
}

/** np=1: diff is an array; otherwise an object keyed "0", "1", … in page order. */
function listAnswer(params: URLSearchParams, total: number, rows: Array<Record<string, unknown>>): Response {
  const diff = params.get('np') === '1' ? rows : Object.fromEntries(rows.map((r, i) => [String(i), r]))
  return jsonResponse(envelope(0, { total, diff }))
}

/**
 * The concept board list, by code: `f12` code, `f13` 90, `f14` name; every other field asked for
 * is `"-"` (the emulator keeps no concept board quotes).
 */
function conceptList(params: URLSearchParams): Response {
  const all = conceptBoards()
  const pz = positiveInt(params.get('pz'), DEFAULT_PZ)
  const pn = positiveInt(params.get('pn'), 1)
  const page = all.slice((pn - 1) * pz, pn * pz)
  if (page.length === 0) return jsonResponse(envelope(0, null))
  const ids = requestedFields(params)
  const rows = page.map((b) => {
    const row: Record<string, string | number> = Object.fromEntries(ids.map((id) => [id, '-']))
    return Object.assign(row, { f12: b.code, f13: 90, f14: b.name })
  })
  return listAnswer(params, all.length, rows)
}

/** The `empty` fault's answer: Eastmoney's nothing-matched `data: null`. */
export function clistEmpty(): Response {
  return jsonResponse(envelope(0, null))
}
