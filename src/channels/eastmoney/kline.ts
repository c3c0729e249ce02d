import type { Bar } from '../../domain/bar'
import { compact, isValidDate } from '../../domain/dates'
import { isMinutePeriod } from '../../domain/period'
import { ChannelError, empty, malformed } from '../errors'
import { fetchText } from '../http'
import type { ChannelContext, KlineRequest } from '../types'
import { checkBars, num, optNum } from '../validate'
import { readDataOrRefusal } from './envelope'
import { secids } from './secid'
import { BEG_ALL, CHANNEL, END_ALL, KLINE_COLUMN as C, KLINE_FIELD_LIST, KLINE_FIELDS, KLINE_FIELDS1, KLINE_URL, KLT, volumeScale } from './wire'

const DAY_DATE = /^\d{4}-\d{2}-\d{2}$/
const MINUTE_DATE = /^\d{4}-\d{2}-\d{2} ([01]\d|2[0-3]):[0-5]\d$/

/** The `kline/get` URL for one secid: qfq (fqt=1) for day and longer, raw (fqt=0) for minutes. */
export function klineUrl(secid: string, req: KlineRequest): string {
  const fqt = isMinutePeriod(req.period) ? 0 : 1
  const beg = req.start ? compact(req.start) : BEG_ALL
  const end = req.end ? compact(req.end) : END_ALL
  return (
    `${KLINE_URL}?secid=${encodeURIComponent(secid)}&klt=${KLT[req.period]}&fqt=${fqt}&beg=${beg}&end=${end}` +
    `&lmt=${req.count}&fields1=${KLINE_FIELDS1}&fields2=${KLINE_FIELD_LIST}`
  )
}

/**
 * Parses a `kline/get` body into checked bars, oldest first, in shares. Nothing known
 * (`rc` 100 or `data: null`) or no rows is `empty`; a refusal (`rc` 102 and any other nonzero
 * `rc`), any row that does not fit the requested columns, or bars {@link checkBars} rejects, is
 * `malformed`.
 */
export function parseKline(text: string, req: KlineRequest): Bar[] {
  const data = readDataOrRefusal(text)
  if (!data) throw empty(CHANNEL, `no K-lines for ${req.instrument.code}`)
  const rows = data.klines
  if (!Array.isArray(rows)) throw malformed(CHANNEL, 'K-line data has no klines list')
  if (rows.length === 0) throw empty(CHANNEL, `no K-lines for ${req.instrument.code} in range`)
  const dateRe = isMinutePeriod(req.period) ? MINUTE_DATE : DAY_DATE
  const scale = volumeScale(req.instrument)
  const bars = rows.map((row): Bar => {
    if (typeof row !== 'string') throw malformed(CHANNEL, 'K-line row is not a string')
    const col = row.split(',')
    if (col.length !== KLINE_FIELDS.length) throw malformed(CHANNEL, `K-line row has ${col.length} columns, want ${KLINE_FIELDS.length}: ${JSON.stringify(row.slice(0, 80))}`)
    const date = col[C.date]
    if (!dateRe.test(date) || !isValidDate(date.slice(0, 10))) throw malformed(CHANNEL, `K-line date ${JSON.stringify(date)} does not fit period ${req.period}`)
    const at = (k: keyof typeof C) => `${k} at ${date}`
    return {
      date,
      open: num(CHANNEL, col[C.open], at('open')),
      close: num(CHANNEL, col[C.close], at('close')),
      high: num(CHANNEL, col[C.high], at('high')),
      low: num(CHANNEL, col[C.low], at('low')),
      volume: Math.round(num(CHANNEL, col[C.volume], at('volume')) * scale),
      amount: num(CHANNEL, col[C.amount], at('amount')),
      // "-" where the instrument has no float (indexes, sectors, futures, forex).
      turnover: optNum(CHANNEL, col[C.turnover], at('turnover')),
    }
  })
  checkBars(CHANNEL, bars)
  return req.count > 0 && bars.length > req.count ? bars.slice(bars.length - req.count) : bars
}

/**
 * K-lines for one instrument. A US ticker of unknown venue tries NASDAQ, NYSE, AMEX in turn,
 * moving on only when a venue has nothing (`empty`); every other failure ends the call.
 */
export async function fetchKline(req: KlineRequest, ctx: ChannelContext): Promise<Bar[]> {
  let lastEmpty: ChannelError | undefined
  for (const secid of secids(req.instrument)) {
    try {
      return parseKline(await fetchText(ctx, CHANNEL, klineUrl(secid, req)), req)
    } catch (e) {
      if (!(e instanceof ChannelError && e.kind === 'empty')) throw e
      lastEmpty = e
    }
  }
  throw lastEmpty ?? empty(CHANNEL, `no secid for ${req.instrument.code}`)
}
