import { batchQuotes } from '../batch-quotes'
import { jsStatements } from '../js-statements'
import type { Quote } from '../../domain/bar'
import type { Instrument } from '../../domain/instrument'
import { empty, malformed } from '../errors'
import { fetchFeedLines, splitLines } from '../live-lines'
import { QT_FEED, QUOTE_BATCH } from './qt-feed'
import type { ChannelContext, FeedLine } from '../types'
import { checkQuote, num, optNum, sessionOf } from '../validate'
import { isAShare, quoteCode, volumeInShares } from './codes'
import { securityName } from '../names'

const CHANNEL = 'tencent'


/** Batch requests in flight at once: Workers open six connections at a time. */
const PARALLEL = 4

interface Layout {
  name: number
  last: number
  preClose: number
  open: number
  volume: number
  time: number
  high: number
  low: number
  amount: number
  turnover: number | null
  /** The status flag (`S` suspended; `D` delisted, `U` never listed, `C` retired code), where the record has one. */
  status: number | null
  /** Records with fewer `~` fields are skipped, as easyquotation does. */
  minFields: number
  /** Multipliers into shares and currency units. */
  volumeUnit: number
  amountUnit: number
}

const COMMON = { name: 1, last: 3, preClose: 4, open: 5, volume: 6, time: 30, high: 33, low: 34, amount: 37 }

/** Field positions per record layout (README "Tencent → Real-time quotes"). */
const QUOTE_LAYOUTS: Record<'ashare' | 'hk' | 'us', Layout> = {
  // Volume in lots (shares for STAR-market stocks: volumeInShares), amount in 10k CNY.
  ashare: { ...COMMON, turnover: 38, status: 40, minFields: 39, volumeUnit: 100, amountUnit: 10_000 },
  hk: { ...COMMON, turnover: 59, status: null, minFields: 60, volumeUnit: 1, amountUnit: 1 },
  us: { ...COMMON, turnover: null, status: null, minFields: 38, volumeUnit: 1, amountUnit: 1 },
}

const layoutOf = (i: Instrument): Layout => (isAShare(i) ? QUOTE_LAYOUTS.ashare : i.kind === 'hk' ? QUOTE_LAYOUTS.hk : QUOTE_LAYOUTS.us)

// `YYYYMMDDHHMMSS` (A-shares), `YYYY/MM/DD HH:MM:SS` (HK), `YYYY-MM-DD HH:MM:SS` (US).
const TIMESTAMP = /^(\d{4})[-/]?(\d{2})[-/]?(\d{2}) ?(\d{2}):?(\d{2}):?(\d{2})$/

/** Scales to base units, rounding away the float noise of the multiplication. */
const times = (x: number, unit: number) => (unit === 1 ? x : Math.round(x * unit * 100) / 100)

/** Splits a decoded body into statements (see {@link jsStatements}). */
export const statements = (text: string) => jsStatements(CHANNEL, 'v_', text)

/** The same statements as feed lines, as the line pool hands them out. */
export const quoteLines = (text: string): FeedLine[] => splitLines(QT_FEED, text)

/**
 * The first `n` `~`-separated fields of a record, read as they are asked for (a record has some
 * 85 fields and a quote reads ten: a whole-market batch parses 1,000 records a call, and splitting
 * each into 85 strings was most of the parse); undefined when the record has fewer than `min`,
 * and `''` for a field from `min` on that the record does not have.
 */
function fieldsOf(payload: string, n: number, min = n): ((k: number) => string) | undefined {
  const starts = new Array<number>(n + 1)
  starts[0] = 0
  let have = n
  for (let k = 1; k < n; k++) {
    const sep = payload.indexOf('~', starts[k - 1])
    if (sep < 0) {
      if (k < min) return undefined
      have = k
      break
    }
    starts[k] = sep + 1
  }
  const end = payload.indexOf('~', starts[have - 1])
  starts[have] = (end < 0 ? payload.length : end) + 1
  return (k) => (k < have ? payload.slice(starts[k], starts[k + 1] - 1) : '')
}

/** Status letters of codes that do not trade at all (delisted, never listed, a retired code): not quotes. */
const INACTIVE = new Set(['D', 'U', 'C'])
/**
 * A delisted line need not keep the layout: the real 600005 line (fixture
 * qt-sz000003-sh600005-sh600000-2026-10-08) has two extra pairs, its timestamp at 34 and its `D`
 * at 44. A record with an unreadable time is skipped when it carries such a letter as a field.
 */
const INACTIVE_FIELD = /~[DUC]~/

/**
 * Parses a decoded `qt.gtimg.cn` body. `wanted` maps lower-case Tencent codes to the requested
 * instruments; the result is keyed by canonical code. Unknown codes (`v_pv_none_match`), codes
 * that do not trade at all (status `D`, `U`, `C`) and records too short for their layout are
 * absent; any other record that does not parse or add up makes the whole answer malformed. A
 * suspension is the status `S` (field 40), never a missing volume.
 */
export function parseQuotes(text: string, wanted: ReadonlyMap<string, Instrument>): Map<string, Quote> {
  return parseQuoteLines(quoteLines(text), wanted)
}

/**
 * What each pooled line was read as, for the instrument it was read for: every call within the
 * line's cadence gets the same line object (src/channels/live-lines.ts), and reads it once. A line
 * that does not add up is not kept (it throws again), and nothing downstream changes a quote.
 */
const readLines = new WeakMap<FeedLine, { code: string; quote: Quote | null }>()

/** {@link parseQuotes} of an answer already cut into lines. */
export function parseQuoteLines(lines: readonly FeedLine[], wanted: ReadonlyMap<string, Instrument>): Map<string, Quote> {
  if (lines.length === 0) throw empty(CHANNEL, 'no quote records')
  const out = new Map<string, Quote>()
  for (const line of lines) {
    const inst = wanted.get(line.name.toLowerCase())
    if (!inst) continue
    let read = readLines.get(line)
    if (!read || read.code !== inst.code) readLines.set(line, (read = { code: inst.code, quote: readLine(line, inst) }))
    if (read.quote) out.set(inst.code, read.quote)
  }
  return out
}

/** One record read for `inst`: null when it is not a quote (too short, a code that does not trade); throws when it does not add up. */
function readLine({ name, payload }: FeedLine, inst: Instrument): Quote | null {
  const L = layoutOf(inst)
  const f = fieldsOf(payload, L.status === null ? L.minFields : Math.max(L.minFields, L.status + 1), L.minFields)
  if (!f) return null
  const status = L.status === null ? '' : f(L.status)
  if (INACTIVE.has(status)) return null
  const field = (k: string) => `${k} of ${name}`
  const ts = TIMESTAMP.exec(f(L.time))
  if (!ts) {
    if (INACTIVE_FIELD.test(payload)) return null
    throw malformed(CHANNEL, `bad time ${JSON.stringify(f(L.time))} for ${name}`)
  }
  const preClose = num(CHANNEL, f(L.preClose), field('prev close'))
  const open = num(CHANNEL, f(L.open), field('open'))
  const high = num(CHANNEL, f(L.high), field('high'))
  const low = num(CHANNEL, f(L.low), field('low'))
  const volume = times(num(CHANNEL, f(L.volume), field('volume')), volumeInShares(inst) ? 1 : L.volumeUnit)
  const amount = optNum(CHANNEL, f(L.amount), field('amount'))
  const { halted, traded, last } = sessionOf({ open, high, low, volume, preClose, last: num(CHANNEL, f(L.last), field('last')), suspended: status === 'S' })
  const quote: Quote = {
    code: inst.code,
    name: securityName(f(L.name)),
    date: `${ts[1]}-${ts[2]}-${ts[3]}`,
    time: `${ts[4]}:${ts[5]}:${ts[6]}`,
    last,
    open,
    high,
    low,
    preClose,
    volume,
    amount: amount === null ? null : times(amount, L.amountUnit),
    turnover: L.turnover === null ? null : optNum(CHANNEL, f(L.turnover), field('turnover')),
    halted,
    traded,
  }
  return checkQuote(CHANNEL, quote)
}

/**
 * Real-time quotes from `qt.gtimg.cn`, at most {@link QUOTE_BATCH} codes a request. Instruments
 * Tencent has no quote for (sectors, futures, forex) are absent; if none is servable: `unsupported`.
 */
export function fetchQuotes(instruments: Instrument[], ctx: ChannelContext): Promise<Map<string, Quote>> {
  return batchQuotes(instruments, {
    channel: CHANNEL,
    codeOf: quoteCode,
    batch: QUOTE_BATCH,
    parallel: PARALLEL,
    fetchBatch: async (codes, wanted) => parseQuoteLines(await fetchFeedLines(ctx, QT_FEED, codes), wanted),
  })
}
