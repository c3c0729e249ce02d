import { batchQuotes } from '../batch-quotes'
import { jsStatements } from '../js-statements'
import type { Quote } from '../../domain/bar'
import type { Instrument } from '../../domain/instrument'
import { empty, malformed } from '../errors'
import type { ChannelContext } from '../types'
import { checkQuote, num, optNum, sessionOf } from '../validate'
import { futuresExchange, isAShare, quoteCode } from './codes'
import { CHANNEL } from './fetch'
import { HQ_FEED, QUOTE_BATCH } from './hq-feed'
import { fetchLines } from '../live-lines'
import { securityName } from '../names'


/** Batch requests in flight at once: Workers open six connections at a time. */
const PARALLEL = 4

interface Layout {
  /** Position of the name; negative counts from the end (CFFEX puts it last). */
  name: number
  open: number
  high: number
  low: number
  last: number
  preClose: number
  volume: number
  amount: number | null
  date: number
  time: number | null
  /** `ymd`: `YYYY-MM-DD` or `YYYY/MM/DD`; `us`: Beijing `YYYY-MM-DD HH:MM:SS`, dated by the US session. */
  dateForm: 'ymd' | 'us'
  /** `hms`: `HH:MM:SS`; `compact`: `HHMMSS`. */
  timeForm: 'hms' | 'compact'
  /** The status field (`00` trading; `03` suspended), where the line has one. */
  status: number | null
  /** Records with fewer comma fields are skipped. */
  minFields: number
}

/** Field positions per line layout (README "Sina → Real-time quotes"). */
const QUOTE_LAYOUTS: Record<'ashare' | 'hk' | 'us' | 'commodity' | 'cffex', Layout> = {
  // Volume already in shares, amount in CNY; no turnover in this feed.
  ashare: { name: 0, open: 1, preClose: 2, last: 3, high: 4, low: 5, volume: 8, amount: 9, date: 30, time: 31, dateForm: 'ymd', timeForm: 'hms', status: 32, minFields: 32 },
  hk: { name: 1, open: 2, preClose: 3, high: 4, low: 5, last: 6, amount: 11, volume: 12, date: 17, time: 18, dateForm: 'ymd', timeForm: 'hms', status: null, minFields: 19 },
  // Field 3 is Beijing time, not exchange time: only the session date is derived from it.
  // Field 30 is the day's amount in USD on the 36-field lines of 2025–2026 (test/fixtures/sina/SOURCE.md);
  // shorter lines have none, and indexes write 0.0000 there.
  us: { name: 0, last: 1, date: 3, open: 5, high: 6, low: 7, volume: 10, preClose: 26, amount: 30, time: null, dateForm: 'us', timeForm: 'hms', status: null, minFields: 27 },
  // The reference price is the previous settlement at 10 (Chinese futures quote change against
  // it); 5 is 0.000 in night-session captures (nf_RB0 at 23:00, 2026-08-28), so it cannot be it.
  commodity: { name: 0, time: 1, open: 2, high: 3, low: 4, preClose: 10, last: 8, volume: 14, date: 17, amount: null, dateForm: 'ymd', timeForm: 'compact', status: null, minFields: 18 },
  // Previous close at 13 is not in the README: live CFFEX lines carry it there (14 is the previous settlement).
  cffex: { open: 0, high: 1, low: 2, last: 3, volume: 4, amount: 5, preClose: 13, date: 36, time: 37, name: -1, dateForm: 'ymd', timeForm: 'hms', status: null, minFields: 39 },
}

function layoutOf(i: Instrument): Layout {
  if (isAShare(i)) return QUOTE_LAYOUTS.ashare
  if (i.kind === 'hk') return QUOTE_LAYOUTS.hk
  if (i.kind === 'future') return futuresExchange(i) === 'CFFEX' ? QUOTE_LAYOUTS.cffex : QUOTE_LAYOUTS.commodity
  return QUOTE_LAYOUTS.us
}

const YMD = /^(\d{4})[-/](\d{2})[-/](\d{2})$/
const BEIJING_STAMP = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/
const HMS = { hms: /^(\d{2}):(\d{2}):(\d{2})$/, compact: /^(\d{2})(\d{2})(\d{2})$/ }
const TWELVE_HOURS_MS = 12 * 3_600_000

function quoteDate(raw: string, form: Layout['dateForm'], code: string): string {
  if (form === 'ymd') {
    const m = YMD.exec(raw)
    if (m) return `${m[1]}-${m[2]}-${m[3]}`
  } else {
    const m = BEIJING_STAMP.exec(raw)
    // The US session date: Beijing wall time minus 12 hours (README, ours).
    if (m) return new Date(Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]) - TWELVE_HOURS_MS).toISOString().slice(0, 10)
  }
  throw malformed(CHANNEL, `bad date ${JSON.stringify(raw)} for ${code}`)
}

function quoteTime(raw: string, form: Layout['timeForm'], code: string): string {
  const m = HMS[form].exec(raw)
  if (!m) throw malformed(CHANNEL, `bad time ${JSON.stringify(raw)} for ${code}`)
  return `${m[1]}:${m[2]}:${m[3]}`
}

/** A US line's 0 amount beside a real volume (an index) is unknown, not zero. */
const amountOf = (amount: number | null, volume: number, L: Layout): number | null =>
  L === QUOTE_LAYOUTS.us && amount === 0 && volume > 0 ? null : amount

/** Splits a decoded body into statements (see {@link jsStatements}). */
export const statements = (text: string) => jsStatements(CHANNEL, 'var hq_str_', text)

/**
 * Parses a decoded `hq.sinajs.cn` body. `wanted` maps lower-case Sina codes to the requested
 * instruments; the result is keyed by canonical code. Unknown codes (`=""`) and lines too short
 * for their layout are absent; a line that does not parse or add up makes the whole answer
 * malformed. A suspension is the status field (32) other than `00`, never a missing volume.
 */
export function parseQuotes(text: string, wanted: ReadonlyMap<string, Instrument>): Map<string, Quote> {
  const records = statements(text)
  if (records.length === 0) throw empty(CHANNEL, 'no quote records')
  const out = new Map<string, Quote>()
  for (const [name, payload] of records) {
    const inst = wanted.get(name.toLowerCase())
    if (!inst || payload === '') continue
    const L = layoutOf(inst)
    const f = payload.split(',')
    if (f.length < L.minFields) continue
    const at = (k: string) => `${k} of ${name}`
    const preClose = num(CHANNEL, f[L.preClose], at('prev close'))
    const open = num(CHANNEL, f[L.open], at('open'))
    const high = num(CHANNEL, f[L.high], at('high'))
    const low = num(CHANNEL, f[L.low], at('low'))
    const volume = num(CHANNEL, f[L.volume], at('volume'))
    // Suspended: a status other than `00` (`03` captured on a suspended stock and fund); a missing one (an old, shorter line) is not a suspension.
    const status = L.status === null ? undefined : f[L.status]
    const suspended = status !== undefined && status !== '' && status !== '00'
    const { halted, traded, last } = sessionOf({ open, high, low, volume, preClose, last: num(CHANNEL, f[L.last], at('last')), suspended })
    const quote: Quote = {
      code: inst.code,
      name: securityName(f.at(L.name)!),
      date: quoteDate(f[L.date], L.dateForm, name),
      time: L.time === null ? null : quoteTime(f[L.time], L.timeForm, name),
      last,
      open,
      high,
      low,
      preClose,
      volume,
      amount: L.amount === null ? null : amountOf(optNum(CHANNEL, f[L.amount], at('amount')), volume, L),
      turnover: null,
      halted,
      traded,
    }
    out.set(inst.code, checkQuote(CHANNEL, quote))
  }
  return out
}

/**
 * Real-time quotes from `hq.sinajs.cn`, at most {@link QUOTE_BATCH} codes a request, with the
 * required Referer. Instruments Sina has no quote for are absent; if none is servable: `unsupported`.
 */
export function fetchQuotes(instruments: Instrument[], ctx: ChannelContext): Promise<Map<string, Quote>> {
  return batchQuotes(instruments, {
    channel: CHANNEL,
    codeOf: quoteCode,
    batch: QUOTE_BATCH,
    parallel: PARALLEL,
    fetchBatch: async (codes, wanted) => parseQuotes(await fetchLines(ctx, HQ_FEED, codes), wanted),
  })
}
