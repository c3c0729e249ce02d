/**
 * Eastmoney's suggest API (`searchapi.eastmoney.com/api/suggest/get`, upstreams.md §5.10) as the
 * emulator answers it, from the instrument universe: A-share stocks, indexes, ETFs, convertible
 * bonds, industry boards, HK and US listings. `input` matches a code's start, a name's text, or
 * the name's pinyin initials; `count` caps the rows.
 */
import { lookup, type LookupEntry } from '../market/lookup'
import type { EmuInstrument, MarketModel } from '../market/types'
import { splitSecid } from './codes'
import { hashOf } from './format'
import { jsonResponse } from './respond'

export const SEARCH_HOST = /^searchapi\.eastmoney\.com$/
export const SEARCH_PATH = '/api/suggest/get'

const DEFAULT_COUNT = 10
const MAX_COUNT = 50

/** How Eastmoney classifies each kind it answers (kinds it does not list are left out). */
interface Class {
  classify: string
  typeName: string
  type: string
  /** `JYS`, `MarketType` and `TypeUS` as captured answers print them for A-shares (沪A: 2, 1, 2; 深A: 6, 2, 6). */
  jys?: string
  marketType?: string
  typeUS?: string
}

function classify(i: EmuInstrument): Class | undefined {
  switch (i.kind) {
    case 'stock':
      if (i.prefix === 'sh') return { classify: 'AStock', typeName: '沪A', type: '1', jys: '2', marketType: '1', typeUS: '2' }
      if (i.prefix === 'sz') return { classify: 'AStock', typeName: '深A', type: '2', jys: '6', marketType: '2', typeUS: '6' }
      return { classify: 'NEEQ', typeName: '京A', type: '81' }
    case 'index':
      return { classify: 'Index', typeName: '指数', type: '5' }
    case 'etf':
      return { classify: 'Fund', typeName: '基金', type: '8' }
    case 'bond':
      return { classify: 'Bond', typeName: '债券', type: '9' }
    case 'sector':
      return { classify: 'BK', typeName: '板块', type: '10' }
    case 'hk':
      return { classify: 'HK', typeName: '港股', type: '19' }
    case 'us':
      return { classify: 'UsStock', typeName: '美股', type: '20' }
    default:
      return undefined
  }
}

function row(e: LookupEntry) {
  const c = classify(e.inst)!
  const { market, code } = splitSecid(e.inst.secid)
  const marketType = c.marketType ?? String(market)
  return {
    Code: code,
    Name: e.inst.name,
    PinYin: e.pinyin,
    ID: `${code}${marketType}`,
    JYS: c.jys ?? String(market),
    Classify: c.classify,
    MarketType: marketType,
    SecurityTypeName: c.typeName,
    SecurityType: c.type,
    MktNum: String(market),
    TypeUS: c.typeUS ?? c.type,
    QuoteID: e.inst.secid,
    UnifiedCode: code,
    InnerCode: String(hashOf(e.inst.secid)),
  }
}

/** Answers one suggest request. */
export function handleSearch(params: URLSearchParams, market: MarketModel): Response {
  const n = Number(params.get('count'))
  const count = Number.isInteger(n) && n > 0 ? Math.min(n, MAX_COUNT) : DEFAULT_COUNT
  const hits = lookup(market, params.get('input') ?? '', 'eastmoney', (i) => classify(i) !== undefined)
  const data = hits.slice(0, count).map(row)
  return jsonResponse({
    QuotationCodeTable: {
      Data: data.length ? data : null,
      Status: 0,
      Message: '成功',
      TotalPage: data.length ? Math.ceil(hits.length / count) : 0,
      TotalCount: hits.length,
      PageIndex: 1,
      PageSize: count,
    },
  })
}

/** The suggest API's answer when it finds nothing. */
export const searchEmpty = () =>
  jsonResponse({ QuotationCodeTable: { Data: null, Status: 0, Message: '成功', TotalPage: 0, TotalCount: 0, PageIndex: 1, PageSize: DEFAULT_COUNT } })
