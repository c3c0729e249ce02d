/**
 * Sina's suggest API (`suggest3.sinajs.cn/suggest/type=…&key=…&name=…`, upstreams.md §5.10) as
 * the emulator answers it: GBK text `var <name>="item;item;…";`, each item comma-separated with
 * 0 the matched text, 1 Sina's type (11 A-share listings, 31 HK, 41 US), 2 the code, 3 the full
 * symbol, 4 the name. Industry boards are not Sina's to suggest.
 */
import { lookup } from '../market/lookup'
import type { EmuInstrument, MarketModel } from '../market/types'
import { isAShare } from './codes'
import { gbkResponse } from './respond'

const SUGGEST_HOST = 'suggest3.sinajs.cn'
const SUGGEST_PATH = /^\/suggest\/(.*)$/
const CONTENT_TYPE = 'application/x-javascript; charset=GBK'
const MAX_ITEMS = 10

/** Sina's type and its two code columns for an instrument it suggests. */
function typed(i: EmuInstrument): [type: string, code: string, symbol: string] | undefined {
  if (isAShare(i)) return ['11', i.symbol, i.code]
  if (i.kind === 'hk') return ['31', i.symbol, i.symbol]
  if (i.kind === 'us') return ['41', i.symbol.toLowerCase(), i.symbol.toLowerCase()]
  return undefined
}

/** The `type=…&key=…&name=…` parameters Sina carries in its path. */
function paramsOf(url: URL): URLSearchParams | undefined {
  const m = SUGGEST_PATH.exec(url.pathname)
  return m ? new URLSearchParams(m[1] + (url.search ? '&' + url.search.slice(1) : '')) : undefined
}

/** True for a Sina suggest URL. */
export const isSinaSuggest = (url: URL) => url.hostname === SUGGEST_HOST && SUGGEST_PATH.test(url.pathname)

/** Answers one suggest request. */
export function handleSinaSuggest(url: URL, market: MarketModel): Response {
  const params = paramsOf(url) ?? new URLSearchParams()
  const key = params.get('key') ?? ''
  const items = lookup(market, key, 'sina', (i) => typed(i) !== undefined)
    .slice(0, MAX_ITEMS)
    .map((e) => {
      const [type, code, symbol] = typed(e.inst)!
      // A code typed in full comes back under the listing's name (688047 → 龙芯中科, the 2025 capture);
      // items have 12 fields since 2025 (test/fixtures/sina/SOURCE.md, suggest).
      const matched = /^\d+$/.test(key) ? e.inst.name : key
      return [matched, type, code, symbol, e.inst.name, '', e.inst.name, '99', '1', '', '', ''].join(',')
    })
  return suggestBody(params.get('name') || 'suggestvalue', items.join(';'))
}

const suggestBody = (name: string, text: string) => gbkResponse(`var ${name}="${text}";`, CONTENT_TYPE)

/** Sina's answer when it suggests nothing. */
export const sinaSuggestEmpty = (url: URL) => suggestBody(paramsOf(url)?.get('name') || 'suggestvalue', '')
