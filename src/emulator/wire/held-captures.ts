/**
 * The real captures the emulator is held to (src/data/upstreams), and how one is asked and
 * compared: by `captures.test.ts` (every held capture, in `npm test`) and by `npm run smoke`
 * (each endpoint once, against the emulator or the live hosts).
 */
import { partOf, shapeDifferences, shapeOf, shapeOfText } from '../../cli/wire-shape.mjs'
import { type Capture, type Hour, UPSTREAM_ENDPOINTS, type UpstreamEndpoint } from '../../data/upstreams'
import { beijing, weekday } from '../../domain/dates'
import { marketPhase } from '../../domain/market-phase'
import { isTradingDay } from '../../domain/trading-calendar'
import { answerUpstream, setClock } from '../control'
import { market } from '../market'

/**
 * The wire changes over the years (Sina wrote prices with 2 decimals in 2015, 3 today; Sina's
 * getKLineData had no minute `amount` before 2023-11), and the emulator speaks today's: it is held to captures from this day on; older ones still test the parsers.
 */
const HELD_SINCE = '2024-01-01'

/**
 * The model's days are not the capture's, so each hour class is asked on a day of the model's
 * own calendar: a Friday in session, its lunch, its post-close session and its evening, the
 * Saturday after, the National Day holiday.
 */
const INSTANT_OF_HOUR: Record<Hour, string> = {
  'pre-open': '2026-11-20T09:05:00+08:00',
  auction: '2026-11-20T09:20:00+08:00',
  session: '2026-11-20T10:30:00+08:00',
  lunch: '2026-11-20T12:00:00+08:00',
  'post-close': '2026-11-20T15:10:00+08:00',
  'after-close': '2026-11-20T16:00:00+08:00',
  night: '2026-11-20T21:00:00+08:00',
  weekend: '2026-11-21T11:00:00+08:00',
  holiday: '2026-10-02T11:00:00+08:00',
  unknown: '2026-11-20T16:00:00+08:00',
}

/** The hour the emulator answers a probe at (an endpoint without a capture has no hour of its own). */
const PROBE_HOUR: Hour = 'after-close'

/** Beijing minutes that bound the hour classes {@link marketPhase} does not draw. */
const PRE_OPEN_FROM = 9 * 60 // the pre-open reset of the lines (src/channels/cadence.ts)
const POST_CLOSE_UNTIL = 15 * 60 + 30 // the post-close fixed-price session ends
const NIGHT_FROM = 20 * 60

/**
 * The hour class of an instant (epoch ms): the market's phase on the trading calendar
 * (src/domain/market-phase.ts), with the closed hours of a trading day cut into post-close,
 * after-close and night, and a closed day into weekend or holiday.
 */
export function hourOf(ms: number): Hour {
  const { date, minute } = beijing(ms)
  if (!isTradingDay(date)) return weekday(date) === 0 || weekday(date) === 6 ? 'weekend' : 'holiday'
  switch (marketPhase(ms)) {
    case 'preopen':
      return minute >= PRE_OPEN_FROM ? 'pre-open' : 'night'
    case 'auction':
    case 'opening':
      return 'auction'
    case 'continuous':
      return 'session'
    case 'lunch':
      return 'lunch'
    case 'closed':
      return minute < POST_CLOSE_UNTIL ? 'post-close' : minute < NIGHT_FROM ? 'after-close' : 'night'
  }
}

/** One capture the emulator is held to, with the request to ask for the same kind of answer. */
export interface Held {
  endpoint: UpstreamEndpoint
  capture: Capture
  url: URL
  headers: Record<string, string>
}

/** The request to ask: the capture's `emulatorRequest`, else its own when that is one plain URL. */
function requestOf(c: Capture): URL | undefined {
  const raw = c.emulatorRequest ?? c.request
  if (!raw || /[{ ]/.test(raw)) return undefined
  try {
    return new URL(raw)
  } catch {
    return undefined
  }
}

/** The Accept and Referer a channel sends a host with its page's request. */
const PAGE_HEADERS: Record<string, Record<string, string>> = {
  'reportapi.eastmoney.com': { referer: 'https://data.eastmoney.com/report/stock.jshtml' },
  'www.szse.cn': { accept: 'application/json', referer: 'http://www.szse.cn/aboutus/calendar/' },
  'www3.hkexnews.hk': { accept: 'text/html,application/xhtml+xml', referer: 'https://www3.hkexnews.hk/sdw/search/searchsdw.aspx' },
}

/**
 * Headers the channels send a host: Sina refuses a request without its Referer (src/channels/sina/fetch.ts),
 * Guba's rank takes a JSON body (src/channels/eastmoney/hot-rank.ts), 10jqka's hot list is asked
 * for JSON (src/channels/ths/hot-list.ts); the research-report list, SZSE's month and HKEX's CCASS
 * form are asked with their pages' Referer (src/channels/eastmoney/reports.ts,
 * src/channels/szse/month-calendar.ts, src/channels/hkex/ccass.ts).
 */
const headersFor = (url: URL, body?: string): Record<string, string> => ({
  ...(/sina(js)?\.c(om\.c)?n$/.test(url.hostname) ? { referer: 'https://finance.sina.com.cn/' } : {}),
  ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
  ...(url.hostname === 'dq.10jqka.com.cn' ? { accept: 'application/json' } : {}),
  ...(PAGE_HEADERS[url.hostname] ?? {}),
})

/** Every capture taken since {@link HELD_SINCE} that has a request to ask, newest first per endpoint. */
export function heldCaptures(endpoints: readonly UpstreamEndpoint[] = UPSTREAM_ENDPOINTS): Held[] {
  return endpoints.flatMap((endpoint) =>
    endpoint.captures
      .filter((c) => c.taken >= HELD_SINCE && !c.excerpt)
      .sort((a, b) => (a.taken < b.taken ? 1 : -1))
      .flatMap((capture) => {
        const url = requestOf(capture)
        return url ? [{ endpoint, capture, url, headers: headersFor(url) }] : []
      })
  )
}

/**
 * An endpoint without a held capture, for `npm run smoke -- --record`: its catalogue `probe`, as
 * its channel sends it, or no request (`url` null) when it has none.
 */
export interface Probe {
  endpoint: UpstreamEndpoint
  url: URL | null
  headers: Record<string, string>
  /** A POST body; a GET without it. */
  body?: string
}

/** Every endpoint {@link heldCaptures} does not ask, with its probe where it has one (for the emulator, its `emulatorProbe` first). */
export function probes(endpoints: readonly UpstreamEndpoint[] = UPSTREAM_ENDPOINTS, forEmulator = false): Probe[] {
  const held = new Set(heldCaptures(endpoints).map((h) => h.endpoint.id))
  return endpoints
    .filter((e) => !held.has(e.id))
    .map((endpoint) => {
      const raw = (forEmulator && endpoint.emulatorProbe) || endpoint.probe
      const url = raw ? new URL(raw) : null
      return { endpoint, url, headers: url ? headersFor(url, endpoint.probeBody) : {}, ...(endpoint.probeBody === undefined ? {} : { body: endpoint.probeBody }) }
    })
}

/** The emulator's instant for a request: a day of the model's calendar at the capture's hour class (a probe's: {@link PROBE_HOUR}). */
export const emulatorInstant = (asked: Held | Probe): number => Date.parse(INSTANT_OF_HOUR['capture' in asked ? asked.capture.hour : PROBE_HOUR])

/** The emulator's answer to a held capture's request or a probe, at {@link emulatorInstant}. */
export async function askEmulator(held: Held | Probe): Promise<Response> {
  if (!held.url) throw new Error(`${held.endpoint.id} has no request to ask`)
  setClock(emulatorInstant(held))
  try {
    const res = await answerUpstream(market, held.url, held.headers, 'body' in held ? held.body : undefined)
    if (!res) throw new Error(`the emulator does not serve ${held.url.hostname}`)
    return res
  } finally {
    setClock(null)
  }
}

/**
 * How an answer departs from the capture's form (empty when it speaks it): `fileBytes` are the
 * capture file's, `answer` the emulator's or a live host's. A capture that kept part of an answer
 * is compared with that part.
 */
export async function departures(held: Held, fileBytes: Uint8Array, answer: Response): Promise<string[]> {
  if (answer.status !== 200) return [`HTTP ${answer.status}`]
  const charset = held.endpoint.charset ?? 'utf-8'
  const stored = held.capture.encoding ?? 'utf-8'
  const real = stored === charset ? shapeOf(fileBytes, `charset=${charset}`) : shapeOfText(new TextDecoder(stored).decode(fileBytes), charset)
  const whole = shapeOf(new Uint8Array(await answer.arrayBuffer()), answer.headers.get('content-type') ?? '')
  const path = held.capture.path
  if (!path) return shapeDifferences(real, whole)
  const ownPart = partOf(real, path)
  const reference = ownPart.root.classes.has(`missing:${path}`) ? real : ownPart
  return shapeDifferences(reference, partOf(whole, path))
}
