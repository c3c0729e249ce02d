/**
 * Sina's suggest API (`suggest3.sinajs.cn/suggest/type=…&key=…`, upstreams.md §5.10), the
 * fallback of /v1/search. GBK text `var suggestvalue="item;item";`, items comma-separated:
 * 0 matched text, 1 Sina's type, 2 code, 3 full symbol, 4 name. A-share listings carry their
 * `sh`/`sz`/`bj` symbol; HK (type 31) and US (type 41) are built from the code. Other types are
 * left out. Sina gives no pinyin and no industry boards.
 */
import { parseSymbol, SymbolError } from '../../domain/symbols'
import { describeAnswer, malformed } from '../errors'
import { MARKET_OF_PREFIX, type SearchHit, type SearchKind } from '../search-hit'
import type { ChannelContext } from '../types'
import { CHANNEL, sinaText } from './fetch'

/** Sina's types for A-share listings (11–15), funds (21–26), HK (31, 33) and US (41). */
const TYPES = '11,12,13,14,15,21,22,23,24,25,26,31,33,41'

export function sinaSuggestUrl(keyword: string): string {
  return `https://suggest3.sinajs.cn/suggest/type=${TYPES}&key=${encodeURIComponent(keyword)}&name=suggestvalue`
}

const KIND_OF: Record<string, SearchKind | undefined> = { stock: 'stock', hk: 'stock', us: 'stock', etf: 'fund', index: 'index', bond: 'bond' }

/** Our code for one item, or undefined for a type we do not serve. */
function codeOf(type: string, code: string, symbol: string): string | undefined {
  if (type === '31' || type === '33') return /^\d{5}$/.test(code) ? 'hk' + code : undefined
  if (type === '41') return /^[a-z.]+$/i.test(code) ? 'us' + code.toUpperCase() : undefined
  if (/^(sh|sz|bj)\d{6}$/.test(symbol)) {
    if (symbol.slice(2) !== code) throw malformed(CHANNEL, `suggest item ${symbol} has code ${code}`)
    return symbol
  }
  return undefined
}

/** Reads a suggest answer; an empty string is no hits, anything not `var x="…";` is `malformed`. */
export function parseSinaSuggest(text: string): SearchHit[] {
  const m = /^\s*var\s+[\w$]+\s*=\s*"([^"]*)"\s*;?\s*$/.exec(text)
  if (!m) throw malformed(CHANNEL, `suggest answer is not one var x="…"; statement (${describeAnswer(text)})`)
  const hits: SearchHit[] = []
  const seen = new Set<string>()
  for (const item of m[1].split(';')) {
    if (!item.trim()) continue
    const f = item.split(',')
    if (f.length < 5) throw malformed(CHANNEL, `suggest item has ${f.length} fields: ${JSON.stringify(item.slice(0, 60))}`)
    const [, type, code, symbol, name] = f
    if (!name.trim()) throw malformed(CHANNEL, `suggest item ${symbol} has no name`)
    const ours = codeOf(type, code, symbol)
    if (!ours) continue
    let inst
    try {
      inst = parseSymbol(ours)
    } catch (e) {
      if (e instanceof SymbolError) continue
      throw e
    }
    const kind = KIND_OF[inst.kind]
    if (!kind || seen.has(inst.code)) continue
    seen.add(inst.code)
    hits.push({ code: inst.code, name: name.trim(), kind, market: MARKET_OF_PREFIX[inst.prefix], pinyin: null })
  }
  return hits
}

/** Hits for a keyword, in Sina's order. */
export async function fetchSinaSuggest(ctx: ChannelContext, keyword: string): Promise<SearchHit[]> {
  return parseSinaSuggest(await sinaText(ctx, sinaSuggestUrl(keyword), 'gbk'))
}
