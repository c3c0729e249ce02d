/**
 * `push2 …/api/qt/slist/get?spt=3&secid=1.600519&fields=f12,f14,f3…`: the boards one stock
 * belongs to (upstreams.md §5.11, efinance `get_belong_board`), `data.diff` an object keyed
 * "0", "1", … — the industry board first, then the concept boards. Industry boards carry their
 * live quote fields; concept boards, which the emulator does not quote, `"-"`. Unknown secid or
 * not a stock: `data: null`.
 */
import { boardsOf } from '../market/business'
import type { MarketModel } from '../market/types'
import { bySecid } from './codes'
import { quoteRow, requestedFields } from './eastmoney-fields'
import { envelope, type Value } from './push2-envelope'
import { jsonResponse } from './respond'

export const SLIST_PATH = '/api/qt/slist/get'

export function handleSlist(params: URLSearchParams, market: MarketModel, now: number): Response {
  const inst = bySecid(market, params.get('secid') ?? '')
  const boards = inst ? boardsOf(inst) : []
  if (boards.length === 0) return jsonResponse(envelope(0, null))
  const ids = requestedFields(params)
  const fltt2 = params.get('fltt') === '2'
  const rows = boards.map((b): Record<string, Value> => {
    const sector = b.kind === 'industry' ? market.byCode('pt' + b.code.slice(2)) : undefined
    const row: Record<string, Value> = sector ? quoteRow(market.live(sector, now), ids, fltt2) : Object.fromEntries(ids.map((id) => [id, '-']))
    return { ...row, f12: b.code, f13: 90, f14: b.name }
  })
  return jsonResponse(envelope(0, { total: rows.length, diff: Object.fromEntries(rows.map((r, i) => [String(i), r])) }))
}
