/**
 * Eastmoney's suggest API (`searchapi.eastmoney.com/api/suggest/get`, upstreams.md §5.10): one
 * keyword (code, name or pinyin initials) → `QuotationCodeTable.Data`, rows keyed `Code`, `Name`,
 * `PinYin`, `Classify`, `QuoteID` (the secid). We read the secid and the class, and turn them into
 * our prefixed code; classes we do not serve (futures, CSI indexes, OTC) are left out.
 */
import { parseSymbol, SymbolError } from '../../domain/symbols'
import { malformed } from '../errors'
import { fetchText } from '../http'
import { parseJson } from '../json'
import { MARKET_OF_PREFIX, type SearchHit, type SearchKind } from '../search-hit'
import type { ChannelContext } from '../types'
import { isObject, type JsonObject } from './envelope'
import { CHANNEL } from './wire'

const SEARCH_URL = 'https://searchapi.eastmoney.com/api/suggest/get'
/** The public web token every client sends (upstreams.md §5.10). */
const TOKEN = 'D43BF722C8E33BDC906FB84D85E326E8'

function searchUrl(keyword: string, count: number): string {
  return `${SEARCH_URL}?input=${encodeURIComponent(keyword)}&type=14&token=${TOKEN}&count=${count}`
}

/** Our kind per Eastmoney `Classify`; others are not ours to answer. */
const KIND_OF_CLASS: Record<string, SearchKind> = {
  AStock: 'stock',
  NEEQ: 'stock',
  Index: 'index',
  Fund: 'fund',
  Bond: 'bond',
  BK: 'sector',
  HK: 'stock',
  UsStock: 'stock',
}

/** Our instrument kinds a class may resolve to: a row whose code disagrees with its class is wrong. */
const KINDS_OF_CLASS: Record<string, string[]> = {
  AStock: ['stock'],
  NEEQ: ['stock'],
  Index: ['index'],
  Fund: ['etf'],
  Bond: ['bond'],
  BK: ['sector'],
  HK: ['hk'],
  UsStock: ['us'],
}

/** Our prefixed code for a secid of a class, or undefined for markets we do not serve. */
function codeOf(classify: string, secid: string): string | undefined {
  const m = /^(\d+)\.([0-9A-Za-z.]+)$/.exec(secid)
  if (!m) throw malformed(CHANNEL, `QuoteID is not a secid: ${JSON.stringify(secid)}`)
  const [, market, code] = m
  switch (market) {
    case '1':
      return 'sh' + code
    case '0':
      // Beijing shares live in Eastmoney's market 0 with Shenzhen; their code ranges tell them apart.
      return (/^(4[3]|8[37]|92|899)/.test(code) && classify !== 'Fund' ? 'bj' : 'sz') + code
    case '90':
      return /^BK\d{4}$/.test(code) ? 'pt' + code.slice(2) : undefined
    case '116':
      return 'hk' + code
    case '105':
    case '106':
    case '107':
      return 'us' + code
    default:
      return undefined
  }
}

const text = (row: JsonObject, key: string) => {
  const v = row[key]
  if (typeof v !== 'string' || v.trim() === '') throw malformed(CHANNEL, `suggest row has no ${key}: ${JSON.stringify(v)}`)
  return v.trim()
}

/**
 * Reads a suggest answer. `Data: null` or `[]` is no hits. Anything not of that shape, a row
 * without code, name or secid, or a secid that does not name the row's code, is `malformed`.
 */
export function parseSuggest(body: string): SearchHit[] {
  const json = parseJson(CHANNEL, body.trim().replace(/^[\w$.]+\(([\s\S]*)\)\s*;?$/, '$1'), 'suggest answer')
  const table = isObject(json) ? json.QuotationCodeTable : undefined
  if (!isObject(table)) throw malformed(CHANNEL, 'suggest answer has no QuotationCodeTable')
  if (table.Data === null || table.Data === undefined) return []
  if (!Array.isArray(table.Data)) throw malformed(CHANNEL, 'QuotationCodeTable.Data is not a list')
  const hits: SearchHit[] = []
  const seen = new Set<string>()
  for (const row of table.Data) {
    if (!isObject(row)) throw malformed(CHANNEL, 'suggest row is not an object')
    const classify = text(row, 'Classify')
    const kind = KIND_OF_CLASS[classify]
    if (!kind) continue
    const secid = text(row, 'QuoteID')
    const rowCode = text(row, 'Code')
    if (!secid.endsWith('.' + rowCode)) throw malformed(CHANNEL, `suggest row ${rowCode} has QuoteID ${secid}`)
    const code = codeOf(classify, secid)
    if (!code) continue
    let inst
    try {
      inst = parseSymbol(code)
    } catch (e) {
      if (e instanceof SymbolError) continue // a listing outside the ranges we serve
      throw e
    }
    if (!KINDS_OF_CLASS[classify].includes(inst.kind)) continue
    if (seen.has(inst.code)) continue
    seen.add(inst.code)
    const pinyin = typeof row.PinYin === 'string' && row.PinYin.trim() ? row.PinYin.trim().toUpperCase() : null
    hits.push({ code: inst.code, name: text(row, 'Name'), kind, market: MARKET_OF_PREFIX[inst.prefix], pinyin })
  }
  return hits
}

/** Hits for a keyword, in the upstream's order (best match first). */
export async function fetchSuggest(ctx: ChannelContext, keyword: string, count: number): Promise<SearchHit[]> {
  return parseSuggest(await fetchText(ctx, CHANNEL, searchUrl(keyword, count)))
}
