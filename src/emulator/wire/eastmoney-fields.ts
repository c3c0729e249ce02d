/**
 * Eastmoney's list-namespace fields (`f2`, `f12`, …) as the emulator prints them, shared by
 * `ulist.np/get` (quotes by secid) and `clist/get` (lists by filter).
 * Meanings and units: src/channels/README.md, Eastmoney section; upstreams.md §1.5.
 */
import { hasTraded } from '../market/quote'
import type { EmuInstrument, LiveQuote } from '../market/types'
import { isAShare, splitSecid } from './codes'
import { pctOf, round } from './format'
import { flowFields } from './eastmoney-flow'
import type { Value } from './push2-envelope'
import { exchangeInstant } from './time'

/** Volume as Eastmoney prints it: lots for sh/sz/bj, shares (contracts) elsewhere, 0 for forex. */
export function volumeUnits(inst: EmuInstrument, shares: number): number {
  if (inst.kind === 'forex') return 0
  return isAShare(inst) ? Math.round(shares / 100) : Math.round(shares)
}

const DEFAULT_QUOTE_FIELDS = 'f2,f3,f4,f5,f6,f8,f12,f13,f14,f15,f16,f17,f18,f124,f297'
/** Fields that carry prices, and percentages: scaled to integers unless `fltt=2`. */
const PRICE_FIELDS = new Set(['f2', 'f4', 'f15', 'f16', 'f17', 'f18'])
const PERCENT_FIELDS = new Set(['f3', 'f7', 'f8'])

/** Every list-namespace field the emulator knows for one instrument, `fltt=2` style. */
export function quoteFields(q: LiveQuote): Record<string, Value> {
  const inst = q.instrument
  const { market, code } = splitSecid(inst.secid)
  const b = q.bar
  const d = inst.decimals
  // No trade in the line's session (a suspension): its prices are "-"; the previous close is the last close.
  const off = !hasTraded(q)
  const pre = b.preClose
  const price = off ? null : b.close
  const dash = (v: number | null): Value => (off || v === null ? '-' : v)
  return {
    f1: d,
    f2: dash(price),
    f3: dash(round(pctOf(b.close - pre, pre), 2)),
    f4: dash(round(b.close - pre, d)),
    f5: dash(volumeUnits(inst, b.volume)),
    f6: dash(round(b.amount, 2)),
    f7: dash(round(pctOf(b.high - b.low, pre), 2)),
    f8: dash(b.turnover === null ? null : round(b.turnover, 2)),
    f12: code,
    f13: market,
    f14: inst.name,
    f15: dash(b.high),
    f16: dash(b.low),
    f17: dash(b.open),
    f18: pre,
    f20: inst.totalShares === null ? '-' : Math.round(inst.totalShares * (price ?? pre)),
    f21: inst.floatShares === null ? '-' : Math.round(inst.floatShares * (price ?? pre)),
    f26: Number(inst.listDate.replaceAll('-', '')),
    f124: Math.floor(exchangeInstant(inst, q.date, q.time) / 1000),
    f152: 2,
    f297: Number(q.date.replaceAll('-', '')),
    ...flowFields(q),
  }
}

/** Without `fltt=2` Eastmoney sends prices × 10^decimals and percentages × 100 as integers. */
function scaled(id: string, v: Value, decimals: number): Value {
  if (typeof v !== 'number') return v
  if (PRICE_FIELDS.has(id)) return Math.round(v * 10 ** decimals)
  if (PERCENT_FIELDS.has(id)) return Math.round(v * 100)
  return v
}

/** The `fields=` ids of a request (the default quote set when absent), in request order. */
export function requestedFields(params: URLSearchParams): string[] {
  return (params.get('fields') || DEFAULT_QUOTE_FIELDS)
    .split(',')
    .map((s) => s.trim())
    .filter((s) => /^f\d+$/.test(s))
}

/** One wire row: exactly `ids`, `"-"` for fields the emulator does not model, scaled unless `fltt=2`. */
export function quoteRow(q: LiveQuote, ids: readonly string[], fltt2: boolean, extra?: Record<string, Value>): Record<string, Value> {
  const all = extra ? { ...quoteFields(q), ...extra } : quoteFields(q)
  const row: Record<string, Value> = {}
  for (const id of ids) {
    const v = all[id] ?? '-'
    row[id] = fltt2 ? v : scaled(id, v, q.instrument.decimals)
  }
  return row
}
