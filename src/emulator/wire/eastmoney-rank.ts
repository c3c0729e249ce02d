/**
 * Eastmoney Guba's popularity rank (`emappdata.eastmoney.com/stockrank/…`, upstreams.md §4.1) as the
 * emulator answers it: POST with a JSON body (`pageNo`, `pageSize`), answer
 * `{"status":0,"message":"success","data":[{"sc","rk","hisRc"}]}` (`hisRc`: rank change since the
 * previous day, positive = up; the row shape measured live in 2026, no name and no price). `getAllCurrentList` is the A-share
 * list (stocks and ETFs, `sc` like `SH600519`); `getAllCurrHkUsList` with `marketType` `000004`
 * is the US list (`sc` like `US|AAPL`), and HK (`000003`) has no rows here. Rankings come from
 * market/popularity.ts for the clock's Beijing date.
 */
import { beijing } from '../../domain/dates'
import { popularityRank, type PopularityList } from '../market/popularity'
import type { EmuInstrument, MarketModel } from '../market/types'
import { jsonResponse, notFound } from './respond'

export const RANK_HOST = 'emappdata.eastmoney.com'
const RANK_PATHS = { cn: '/stockrank/getAllCurrentList', hkus: '/stockrank/getAllCurrHkUsList' } as const

/** Guba's market type codes in the HK/US list body. */
const MARKET_TYPE: Record<string, PopularityList | null> = { '000003': null, '000004': 'us' }

/** Most rows Guba serves per page. */
const MAX_PAGE_SIZE = 100

const answer = (data: unknown, status = 0, message = 'success') => jsonResponse({ globalId: '786e4c21-70dc-435a-93bb-38', message, status, code: status, data })

/** `sc` as Guba writes it. */
function securityCode(i: EmuInstrument): string {
  return i.kind === 'us' ? `US|${i.symbol}` : i.prefix.toUpperCase() + i.symbol
}

/** Answers one rank request. */
export async function handleRank(url: URL, request: Request, market: MarketModel, now: number): Promise<Response> {
  const which = url.pathname === RANK_PATHS.cn ? 'cn' : url.pathname === RANK_PATHS.hkus ? 'hkus' : null
  if (!which) return notFound()
  if (request.method !== 'POST') return answer(null, -1, 'method not allowed')
  let body: Record<string, unknown>
  try {
    body = JSON.parse(await request.text()) as Record<string, unknown>
  } catch {
    return answer(null, -1, 'invalid request body')
  }
  const list = which === 'cn' ? 'cn' : MARKET_TYPE[String(body.marketType ?? '')]
  if (list === undefined) return answer(null, -1, 'unknown marketType')
  if (list === null) return answer([])
  const pageNo = Math.max(1, Math.floor(Number(body.pageNo) || 1))
  const pageSize = Math.min(MAX_PAGE_SIZE, Math.max(1, Math.floor(Number(body.pageSize) || 20)))
  const rows = popularityRank(market, list, beijing(now).date).slice((pageNo - 1) * pageSize, pageNo * pageSize)
  return answer(rows.map((r) => ({ sc: securityCode(r.instrument), rk: r.rank, hisRc: r.rankChange })))
}

/** The `empty` fault's answer: success with no rows. */
export function rankEmpty(): Response {
  return answer([])
}
