import { malformed } from '../errors'
import { isObject, parseJsonObject, type JsonObject } from '../json'
import { CHANNEL } from './wire'

export { isObject, type JsonObject }

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
  const json = parseJsonObject(CHANNEL, body, 'response')
  if (typeof json.rc !== 'number') throw malformed(CHANNEL, 'response has no numeric rc')
  const { data } = json
  if (data !== null && !isObject(data)) throw malformed(CHANNEL, 'response data is neither an object nor null')
  return json.rc === 0 ? data : null
}
