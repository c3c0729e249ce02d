import type { Quote } from '../../domain/bar'
import { isValidDate } from '../../domain/dates'
import type { Instrument } from '../../domain/instrument'
import { ChannelError, malformed } from '../errors'
import { fetchText } from '../http'
import type { ChannelContext, LineFeed } from '../types'
import { checkQuote, num, optNum, sessionOf } from '../validate'
import { exchangeClock } from './clock'
import { isObject, readData, type JsonObject } from './envelope'
import { mapLimit } from '../../domain/concurrency'
import { secids } from './secid'
import { CHANNEL, QUOTE_BATCH, QUOTE_CONCURRENCY, QUOTE_FIELD_LIST, QUOTE_FIELDS as F, QUOTES_URL, volumeScale } from './wire'
import { securityName } from '../names'
import { quoteCadenceMs } from '../cadence'

/** The `ulist.np/get` URL for a batch of secids (at most {@link QUOTE_BATCH}). */
export function quotesUrl(batch: readonly string[]): string {
  return `${QUOTES_URL}?fltt=2&invt=2&fields=${QUOTE_FIELD_LIST}&secids=${batch.map(encodeURIComponent).join(',')}`
}

/**
 * Parses a `ulist.np/get` body into quotes keyed by canonical code. `wanted` maps each requested
 * secid to its instrument, in priority order: when several secids name one instrument (US
 * fallbacks) the first one answered wins. Rows are matched by `f13.f12`, never by position;
 * rows nobody asked for are ignored, and `data: null` means none is known (an empty map).
 */
export function parseQuotes(text: string, wanted: ReadonlyMap<string, Instrument>): Map<string, Quote> {
  const out = new Map<string, Quote>()
  const data = readData(text)
  if (!data) return out
  const rows = rowsBySecid(data.diff)
  for (const [secid, inst] of wanted) {
    if (out.has(inst.code)) continue
    const row = rows.get(secid.toLowerCase())
    if (row) out.set(inst.code, toQuote(row, inst, secid))
  }
  return out
}

/** Indexes `diff` (an array, or an object keyed by position) by lower-cased `f13.f12`; first row wins. */
function rowsBySecid(diff: unknown): Map<string, JsonObject> {
  const list = Array.isArray(diff) ? diff : isObject(diff) ? Object.values(diff) : null
  if (!list) throw malformed(CHANNEL, 'quote data has no diff list')
  const rows = new Map<string, JsonObject>()
  for (const row of list) {
    if (!isObject(row)) throw malformed(CHANNEL, 'quote row is not an object')
    const market = row[F.market]
    const code = row[F.code]
    if (typeof market !== 'number' && typeof market !== 'string') throw malformed(CHANNEL, `quote row without ${F.market}`)
    if (typeof code !== 'string' && typeof code !== 'number') throw malformed(CHANNEL, `quote row without ${F.code}`)
    // Case-insensitive: futures codes are lower-case on some exchanges, and no market has two codes differing only by case.
    const key = `${market}.${code}`.toLowerCase()
    if (!rows.has(key)) rows.set(key, row)
  }
  return rows
}

function toQuote(row: JsonObject, inst: Instrument, secid: string): Quote {
  const field = (k: keyof typeof F) => `${F[k]} (${k}) of ${secid}`
  const preClose = num(CHANNEL, row[F.preClose], field('preClose'))
  const scale = volumeScale(inst)
  const base = {
    code: inst.code,
    name: typeof row[F.name] === 'string' ? securityName(row[F.name] as string) : '',
    ...stamp(row, inst, secid),
    preClose,
    amount: optNum(CHANNEL, row[F.amount], field('amount')),
    turnover: optNum(CHANNEL, row[F.turnover], field('turnover')),
  }
  // Suspended: Eastmoney sends "-" for every price of the session (captured in the list namespace).
  if (row[F.last] === '-') return checkQuote(CHANNEL, { ...base, last: preClose, open: 0, high: 0, low: 0, volume: 0, halted: true, traded: false })
  // A price without open, high, low or volume ("-") has not traded yet in its session.
  const day = (k: 'open' | 'high' | 'low' | 'volume') => optNum(CHANNEL, row[F[k]], field(k)) ?? 0
  const open = day('open')
  const high = day('high')
  const low = day('low')
  const volume = Math.round(day('volume') * scale)
  const { halted, traded, last } = sessionOf({ open, high, low, volume, preClose, last: num(CHANNEL, row[F.last], field('last')), suspended: false })
  return checkQuote(CHANNEL, { ...base, last, open, high, low, volume, halted, traded })
}

const MAX_STAMP = 4_102_444_800 // 2100-01-01

/** Trade date from `f297`, else from `f124` on the exchange's clock; time from `f124`. */
function stamp(row: JsonObject, inst: Instrument, secid: string): { date: string; time: string | null } {
  const seconds = optNum(CHANNEL, row[F.time], `${F.time} (time) of ${secid}`)
  // Outside 1970..2100 a stamp is garbage, and far enough out Date itself throws.
  if (seconds !== null && (seconds < 0 || seconds > MAX_STAMP)) throw malformed(CHANNEL, `${F.time} (time) of ${secid} out of range: ${seconds}`)
  const clock = seconds === null ? null : exchangeClock(inst, seconds)
  const raw = row[F.tradeDate]
  if (raw !== undefined && raw !== null && raw !== '-' && raw !== 0) {
    const d = String(raw)
    const date = `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6)}`
    if (!/^\d{8}$/.test(d) || !isValidDate(date)) throw malformed(CHANNEL, `${F.tradeDate} (tradeDate) of ${secid} is not a YYYYMMDD date: ${JSON.stringify(raw)}`)
    return { date, time: clock?.time ?? null }
  }
  if (!clock) throw malformed(CHANNEL, `no trade date or time for ${secid}`)
  return clock
}

/** Secid markets of the A-share exchanges (0 Shenzhen and Beijing, 1 Shanghai): their lines follow the A-share day. */
const A_SHARE_MARKET = /^[01]\./

/**
 * Eastmoney's real-time quotes, `push2.eastmoney.com/api/qt/ulist.np/get?secids=a,b,c` (JSON): the
 * first channel of the Hong Kong, US, futures and forex quotes, the third of the A-shares. Each row
 * of `data.diff` is kept as one line under its `f13.f12` secid; an answer is put back together as the
 * host sends it, so the parser above reads pooled and direct answers alike.
 */
const ULIST_FEED: LineFeed = {
  channel: CHANNEL,
  prefix: '',
  url: quotesUrl,
  encoding: 'utf-8',
  batch: QUOTE_BATCH,
  cadenceMs: (secid, now) => quoteCadenceMs(A_SHARE_MARKET.test(secid) ? 'sh' : secid, now),
  format: {
    split: (text) => {
      const data = readData(text)
      return data ? [...rowsBySecid(data.diff)].map(([secid, row]) => [secid, JSON.stringify(row)]) : []
    },
    join: (lines) => (lines.length ? `{"rc":0,"data":{"total":${lines.length},"diff":[${lines.map((l) => l.payload).join(',')}]}}` : '{"rc":0,"data":null}'),
  },
}

/**
 * Real-time quotes for many instruments: secids go out in batches of {@link QUOTE_BATCH}, at most
 * {@link QUOTE_CONCURRENCY} requests at a time; any failed batch fails the call. Unknown
 * instruments, and those without a secid, are absent from the result.
 */
export async function fetchQuotes(instruments: readonly Instrument[], ctx: ChannelContext): Promise<Map<string, Quote>> {
  // Candidates of one instrument stay adjacent, so priority survives the split into batches.
  const wanted = new Map<string, Instrument>()
  for (const inst of instruments) {
    for (const s of candidates(inst)) if (!wanted.has(s)) wanted.set(s, inst)
  }
  // Shared with the isolate's other calls within the cadence, in batches of the host's size (src/channels/live-lines.ts).
  if (ctx.lines) return parseQuotes(await ctx.lines.text(ctx, ULIST_FEED, [...wanted.keys()]), wanted)
  const all = [...wanted]
  const batches: Array<Map<string, Instrument>> = []
  for (let i = 0; i < all.length; i += QUOTE_BATCH) batches.push(new Map(all.slice(i, i + QUOTE_BATCH)))
  const parts = await mapLimit(batches, QUOTE_CONCURRENCY, async (batch) =>
    parseQuotes(await fetchText(ctx, CHANNEL, quotesUrl([...batch.keys()])), batch)
  )
  const out = new Map<string, Quote>()
  for (const part of parts) for (const [code, q] of part) if (!out.has(code)) out.set(code, q)
  return out
}

function candidates(inst: Instrument): string[] {
  try {
    return secids(inst)
  } catch (e) {
    if (e instanceof ChannelError && e.kind === 'unsupported') return []
    throw e
  }
}
