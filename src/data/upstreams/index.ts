/**
 * The upstream catalogue (README.md beside this file): every endpoint the channels call, with the
 * real captured answers its parser is tested on, or what was searched when none was found.
 */
import eastmoneyData from './eastmoney-data.json'
import eastmoneyPush from './eastmoney-push.json'
import others from './others.json'
import sina from './sina.json'
import tencent from './tencent.json'

/**
 * When in the Beijing trading day an answer was taken; the wire differs by hour. `post-close` is
 * 15:00–15:30, the post-close fixed-price session, before its trades reach Sina's lines.
 */
export const HOURS = ['pre-open', 'auction', 'session', 'lunch', 'post-close', 'after-close', 'night', 'weekend', 'holiday', 'unknown'] as const
export type Hour = (typeof HOURS)[number]

export interface Capture {
  file: string
  /** How the file's bytes are encoded: as the host sent them, or UTF-8 where the source kept text. Default utf-8. */
  encoding?: 'utf-8' | 'gbk'
  /** The emulator's request for the same kind of answer, where the capture's own cannot be asked (a code or day the model lacks). */
  emulatorRequest?: string
  /** Where in the whole answer the file's content sits (`result`, `data.klines`), when the source kept only part of it. */
  path?: string
  /** Why the capture is not whole (keys trimmed from its rows): the parsers are tested on it, the emulator is not held to it. */
  excerpt?: string
  request: string | null
  taken: string
  hour: Hour
  source: string
}

export interface UpstreamEndpoint {
  id: string
  url: string
  report: string | null
  /** The charset the host answers in. Default utf-8. */
  charset?: 'utf-8' | 'gbk'
  callers: string[]
  captures: Capture[]
  searched: string | null
  /**
   * For an endpoint without a held capture (none, or only ones from before 2024, excerpts, or
   * without a plain request): one concrete request, as its channel sends it for a typical case,
   * that `npm run smoke -- --live --record DIR` asks so a maintainer can record the real answer.
   */
  probe?: string
  /** The POST body the channel sends with {@link probe} (Guba's rank takes JSON); a GET without it. */
  probeBody?: string
  /** The emulator's request for the same kind of answer, where the probe's own cannot be asked (a report, code or day the model lacks). */
  emulatorProbe?: string
}

/** The catalogue's files, by family; each is a JSON array of {@link UpstreamEndpoint}. */
const CATALOGUE_FILES = {
  'eastmoney-push': eastmoneyPush,
  'eastmoney-data': eastmoneyData,
  tencent,
  sina,
  others,
} as unknown as Record<string, UpstreamEndpoint[]>

/** Every catalogued endpoint, in file order. */
export const UPSTREAM_ENDPOINTS: UpstreamEndpoint[] = Object.values(CATALOGUE_FILES).flat()
