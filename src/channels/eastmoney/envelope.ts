import { malformed } from '../errors'
import { CHANNEL } from './wire'

/** A JSON object, as opposed to an array or a primitive. */
export type JsonObject = Record<string, unknown>

export const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v)

// `cb=` is never sent, but a mirror or proxy answering `jQuery123({...});` costs nothing to accept.
const JSONP = /^[\w$.]+\(([\s\S]*)\)\s*;?$/

/**
 * Reads Eastmoney's `{"rc":0,"data":…}` envelope. Returns `data`, or null when the upstream
 * knows nothing (`rc` ≠ 0 or `data: null`). Anything that is not that shape is `malformed`.
 */
export function readData(text: string): JsonObject | null {
  let body = text.trim()
  const m = JSONP.exec(body)
  if (m) body = m[1]
  let json: unknown
  try {
    json = JSON.parse(body)
  } catch {
    throw malformed(CHANNEL, `not JSON: ${JSON.stringify(text.slice(0, 60))}`)
  }
  if (!isObject(json)) throw malformed(CHANNEL, 'response is not a JSON object')
  if (typeof json.rc !== 'number') throw malformed(CHANNEL, 'response has no numeric rc')
  const { data } = json
  if (data !== null && !isObject(data)) throw malformed(CHANNEL, 'response data is neither an object nor null')
  return json.rc === 0 ? data : null
}
