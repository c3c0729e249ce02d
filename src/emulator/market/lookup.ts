/**
 * Finding instruments by what a person types: a code's start, a name or part of one, the name's
 * pinyin initials or its whole pinyin (`maotai`, `pingan`, as upstreams.md §5.10's examples ask
 * Sina's and Tencent's suggest). The suggest APIs of the wire layer (Eastmoney, Sina) answer from it.
 */
import { pinyinFull, pinyinInitials } from './pinyin'
import type { EmuInstrument, MarketModel } from './types'

export interface LookupEntry {
  inst: EmuInstrument
  /** The code as the upstreams print it, upper-cased: `600519`, `00700`, `AAPL`, `BK0477`. */
  code: string
  /** Pinyin initials of the name: `GZMT`. */
  pinyin: string
  /** The name's whole pinyin: `GUIZHOUMAOTAI`. */
  full: string
  /** The name as typed: full-width letters as ASCII, upper-cased (`万科Ａ` → `万科A`). */
  typed: string
}

/** What a person types for a text: full-width letters and digits as their ASCII twins, upper case. */
const fold = (s: string) => s.normalize('NFKC').toUpperCase()

const indexes = new WeakMap<MarketModel, Map<string, LookupEntry[]>>()

/** Upstream code of an instrument: the secid's part after the market number. */
const upstreamCode = (i: EmuInstrument) => i.secid.slice(i.secid.indexOf('.') + 1).toUpperCase()

/** Entries of the instruments `include` keeps, built once per market and filter name. */
function entries(market: MarketModel, name: string, include: (i: EmuInstrument) => boolean): LookupEntry[] {
  let byName = indexes.get(market)
  if (!byName) indexes.set(market, (byName = new Map()))
  let list = byName.get(name)
  if (!list) {
    list = market.instruments().filter(include).map((inst) => ({ inst, code: upstreamCode(inst), pinyin: pinyinInitials(inst.name), full: pinyinFull(inst.name), typed: fold(inst.name) }))
    byName.set(name, list)
  }
  return list
}

/** Match quality, lower is better; undefined for no match. */
function rank(e: LookupEntry, key: string): number | undefined {
  if (e.code === key) return 0
  if (e.typed === key) return 1
  if (e.code.startsWith(key)) return 2
  if (e.typed.startsWith(key)) return 3
  if (e.pinyin.startsWith(key)) return 4
  if (e.typed.includes(key)) return 5
  if (e.full.startsWith(key)) return 6
  // A syllable or two inside a name (中国平安 for `pingan`); shorter keys would match almost anything.
  if (key.length >= 4 && /^[A-Z]+$/.test(key) && e.full.includes(key)) return 7
  return undefined
}

/**
 * Every instrument `include` keeps that matches `input` (case-insensitive), best first, ties by
 * code. `filter` names the `include` rule so its index is built once.
 */
export function lookup(market: MarketModel, input: string, filter: string, include: (i: EmuInstrument) => boolean): LookupEntry[] {
  const key = fold(input.trim())
  if (!key) return []
  const hits: Array<[number, LookupEntry]> = []
  for (const e of entries(market, filter, include)) {
    const r = rank(e, key)
    if (r !== undefined) hits.push([r, e])
  }
  hits.sort((a, b) => a[0] - b[0] || (a[1].code < b[1].code ? -1 : a[1].code > b[1].code ? 1 : 0))
  return hits.map(([, e]) => e)
}
