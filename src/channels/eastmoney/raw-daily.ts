/**
 * Unadjusted (fqt=0) day bars over a date range, through the K-line URL builder and parser: the
 * raw prices the history store keeps, with corporate actions alongside to adjust them exactly.
 */
import type { Bar } from '../../domain/bar'
import { isValidDate } from '../../domain/dates'
import type { Instrument } from '../../domain/instrument'
import { ChannelError, empty, malformed } from '../errors'
import { fetchText } from '../http'
import type { ChannelContext, KlineRequest } from '../types'
import { klineUrl, parseKline } from './kline'
import { secids } from './secid'
import { CHANNEL } from './wire'

/** `lmt` of a raw-daily request: more bars than any A-share has (about 8,500 since 1990). */
const RAW_DAILY_LIMIT = 10_000

const FQT = /([?&]fqt=)\d+/

const request = (instrument: Instrument, from: string, to: string): KlineRequest => ({ instrument, period: 'day', count: RAW_DAILY_LIMIT, start: from, end: to })

/** The `kline/get` URL of raw day bars in [from, to]: the qfq builder's URL with `fqt=0`. */
export function rawDailyUrl(secid: string, instrument: Instrument, from: string, to: string): string {
  const url = klineUrl(secid, request(instrument, from, to))
  if (!FQT.test(url)) throw new Error(`klineUrl gave no fqt to replace: ${url}`)
  return url.replace(FQT, (_, head: string) => `${head}0`)
}

/**
 * Raw day bars of `instrument` with from ≤ date ≤ to (`YYYY-MM-DD`), oldest first, volume in
 * shares. None is `empty`; bars outside the range, or a full `lmt` (the answer may be cut), are
 * `malformed`. A US ticker of unknown venue tries each venue while the last one was empty.
 * Throws RangeError for a bad range.
 */
export async function fetchRawDaily(ctx: ChannelContext, instrument: Instrument, from: string, to: string): Promise<Bar[]> {
  if (!isValidDate(from) || !isValidDate(to) || from > to) throw new RangeError(`bad date range ${from}..${to}`)
  const req = request(instrument, from, to)
  let lastEmpty: ChannelError | undefined
  for (const secid of secids(instrument)) {
    try {
      const bars = parseKline(await fetchText(ctx, CHANNEL, rawDailyUrl(secid, instrument, from, to)), req)
      if (bars[0].date < from || bars[bars.length - 1].date > to) throw malformed(CHANNEL, `raw bars of ${instrument.code} run ${bars[0].date}..${bars[bars.length - 1].date}, outside ${from}..${to}`)
      if (bars.length >= RAW_DAILY_LIMIT) throw malformed(CHANNEL, `${bars.length} raw bars of ${instrument.code}: the answer may be cut at lmt; ask for a shorter range`)
      return bars
    } catch (e) {
      if (!(e instanceof ChannelError && e.kind === 'empty')) throw e
      lastEmpty = e
    }
  }
  throw lastEmpty ?? empty(CHANNEL, `no secid for ${instrument.code}`)
}
