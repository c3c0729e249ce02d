import { readFileSync } from 'node:fs'
import { afterAll, describe, expect, it } from 'vitest'
import { partOf, shapeDifferences, shapeOf, shapeOfText } from '../../cli/wire-shape.mjs'
import { type Capture, type Hour, UPSTREAM_ENDPOINTS, type UpstreamEndpoint } from '../../channels/catalogue'
import { answerUpstream, setClock } from '../control'
import { market } from '../market'

/**
 * The emulator held to the real wire: for every catalogued capture, the emulator is asked the same
 * request at the same kind of hour, and its answer's structure (keys, value classes, row widths,
 * decimals, time stamp forms, charset) must be one the real host sends. The model's days are not
 * the capture's, so each hour class is asked on a day of the model's own calendar: a Friday in
 * session, its lunch, its post-close session and its evening, the Saturday after, the National Day holiday.
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

/** The request to put to the emulator: the capture's own when it is one plain URL. */
function requestOf(c: Capture): URL | undefined {
  const raw = c.emulatorRequest ?? c.request
  if (!raw || /[{ ]/.test(raw)) return undefined
  try {
    return new URL(raw)
  } catch {
    return undefined
  }
}

/** Headers the channels send a host (src/channels/sina/fetch.ts): Sina refuses a request without its Referer. */
const headersFor = (url: URL): Record<string, string> => (/sina(js)?\.c(om\.c)?n$/.test(url.hostname) ? { referer: 'https://finance.sina.com.cn/' } : {})

/** Captures taken before 2024 show an older wire (Sina's 33-field lines of 2015, getKLineData before its minute `amount`): the emulator is held to the current one only. */
const current = (c: Capture) => c.taken >= '2024-01-01'

const askable = UPSTREAM_ENDPOINTS.flatMap((e) => e.captures.filter((c) => current(c) && requestOf(c)).map((c) => [e, c] as [UpstreamEndpoint, Capture]))

afterAll(() => setClock(null))

describe('the emulator speaks what the real hosts send', () => {
  it('has the catalogue\'s captures to compare against', () => expect(askable.length).toBeGreaterThan(20))

  it.each(askable.map(([e, c]) => [`${e.id} ${c.file.split('/').pop()}`, e, c] as const))('%s', async (_name, endpoint, capture) => {
    const bytes = readFileSync(capture.file)
    const charset = endpoint.charset ?? 'utf-8'
    const real = (capture.encoding ?? 'utf-8') === charset ? shapeOf(bytes, `charset=${charset}`) : shapeOfText(new TextDecoder(capture.encoding).decode(bytes), charset)
    setClock(Date.parse(INSTANT_OF_HOUR[capture.hour]))
    const url = requestOf(capture)!
    const res = await answerUpstream(market, url, headersFor(url))
    expect(res, 'a host the emulator serves').toBeDefined()
    expect(res!.status).toBe(200)
    const whole = shapeOf(new Uint8Array(await res!.arrayBuffer()), res!.headers.get('content-type') ?? '')
    const emulated = capture.path ? partOf(whole, capture.path) : whole
    // A file that keeps the envelope but left parts out (a `qt`, a `prec`) is compared at `path` too.
    const kept = capture.path ? partOf(real, capture.path) : real
    expect(shapeDifferences(kept.root.classes.has(`missing:${capture.path}`) ? real : kept, emulated)).toEqual([])
  })
})
