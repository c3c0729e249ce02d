/**
 * Eastmoney's money-flow wire formats as the emulator answers them (upstreams.md §5.4), from
 * market/flow.ts: the list-namespace flow fields of `ulist.np/get` and `clist/get` (today), and
 * `push2his …/api/qt/stock/fflow/daykline/get` (one row per recent session: nets and ratios only,
 * as the real endpoint gives them).
 */
import { beijing } from '../../domain/dates'
import { dayFlow, type DayFlow } from '../market/flow'
import { hasTraded } from '../market/quote'
import type { EmuInstrument, LiveQuote, MarketModel, RawBar } from '../market/types'
import { bySecid, isAShare, splitSecid } from './codes'
import { envelope, type Value } from './push2-envelope'
import { fixed, pctOf, round } from './format'
import { jsonResponse } from './respond'

export const FFLOW_DAY_PATH = '/api/qt/stock/fflow/daykline/get'

/** Sessions the day-flow history reaches back (the real one holds a few months). */
const FFLOW_DAYS = 120

const net = (f: DayFlow['super']) => f.inflow - f.outflow

/** List-namespace ids per order class: inflow, outflow, net, net ratio (% of the day's amount). */
const FLOW_FIELD_IDS = {
  super: ['f64', 'f65', 'f66', 'f69'],
  large: ['f70', 'f71', 'f72', 'f75'],
  medium: ['f76', 'f77', 'f78', 'f81'],
  small: ['f82', 'f83', 'f84', 'f87'],
} as const
/** Main force (super-large + large): net, net ratio. */
const MAIN_FLOW_IDS = ['f62', 'f184'] as const

/** The session's flow fields of an A-share stock quote; nothing for other kinds, `"-"` without a trade in it. */
export function flowFields(q: LiveQuote): Record<string, Value> {
  const inst = q.instrument
  if (inst.kind !== 'stock' || !isAShare(inst)) return {}
  const ids = [...MAIN_FLOW_IDS, ...Object.values(FLOW_FIELD_IDS).flat()]
  if (!hasTraded(q)) return Object.fromEntries(ids.map((id) => [id, '-']))
  const f = dayFlow(inst, q.bar)
  const amount = q.bar.amount
  const out: Record<string, Value> = {}
  for (const [cls, [inId, outId, netId, ratioId]] of Object.entries(FLOW_FIELD_IDS) as Array<[keyof DayFlow, readonly string[]]>) {
    out[inId] = round(f[cls].inflow, 2)
    out[outId] = round(f[cls].outflow, 2)
    out[netId] = round(net(f[cls]), 2)
    out[ratioId] = round(pctOf(net(f[cls]), amount), 2)
  }
  const main = net(f.super) + net(f.large)
  out.f62 = round(main, 2)
  out.f184 = round(pctOf(main, amount), 2)
  return out
}

/** One daykline row, f51..f65: date, main/small/medium/large/super net, the same five ratios, close, change %, two unused zeros. */
function dayRow(inst: EmuInstrument, bar: RawBar): string {
  const f = dayFlow(inst, bar)
  const nets = [net(f.super) + net(f.large), net(f.small), net(f.medium), net(f.large), net(f.super)]
  return [
    bar.date,
    ...nets.map((n) => fixed(n, 1)),
    ...nets.map((n) => fixed(pctOf(n, bar.amount), 2)),
    fixed(bar.close, inst.decimals),
    fixed(pctOf(bar.close - bar.preClose, bar.preClose), 2),
    '0.00',
    '0.00',
  ].join(',')
}

/**
 * `fflow/daykline/get?secid=…&lmt=…`: the last {@link FFLOW_DAYS} sessions of an A-share stock
 * (today's so far while the session is open), oldest first; `lmt` > 0 keeps the newest `lmt`.
 * Another kind or an unknown secid: `data: null`.
 */
export function handleFflowDay(params: URLSearchParams, market: MarketModel, now: number): Response {
  const inst = bySecid(market, params.get('secid') ?? '')
  if (!inst || inst.kind !== 'stock' || !isAShare(inst)) return jsonResponse(envelope(0, null))
  const today = beijing(now).date
  const from = new Date(Date.parse(today) - FFLOW_DAYS * 2 * 86_400_000).toISOString().slice(0, 10)
  let bars = market.dailyBars(inst, from, today, now).filter((b) => b.volume > 0).slice(-FFLOW_DAYS)
  const lmt = Number(params.get('lmt'))
  if (Number.isInteger(lmt) && lmt > 0) bars = bars.slice(-lmt)
  const { market: m, code } = splitSecid(inst.secid)
  return jsonResponse(envelope(0, { code, market: m, name: inst.name, tradePeriods: null, klines: bars.map((b) => dayRow(inst, b)) }))
}

/** The `empty` fault's answer: no rows. */
export function fflowEmpty(params: URLSearchParams, market: MarketModel): Response {
  const inst = bySecid(market, params.get('secid') ?? '')
  if (!inst) return jsonResponse(envelope(0, null))
  const { market: m, code } = splitSecid(inst.secid)
  return jsonResponse(envelope(0, { code, market: m, name: inst.name, tradePeriods: null, klines: [] }))
}
