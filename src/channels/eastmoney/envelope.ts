import { malformed } from '../errors'
import { isObject, parseJsonObject, type JsonObject } from '../json'
import { CHANNEL } from './wire'

export { isObject, type JsonObject }

// `cb=` is never sent, but a mirror or proxy answering `jQuery123({...});` costs nothing to accept.
const JSONP = /^[\w$.]+\(([\s\S]*)\)\s*;?$/

/** The `rc` and `data` of an `{"rc":0,"data":…}` envelope; anything else is `malformed`. */
function readEnvelope(text: string): { rc: number; data: JsonObject | null } {
  let body = text.trim()
  const m = JSONP.exec(body)
  if (m) body = m[1]
  const json = parseJsonObject(CHANNEL, body, 'response')
  if (typeof json.rc !== 'number') throw malformed(CHANNEL, 'response has no numeric rc')
  const { data } = json
  if (data !== null && !isObject(data)) throw malformed(CHANNEL, 'response data is neither an object nor null')
  return { rc: json.rc, data: data as JsonObject | null }
}

/**
 * Reads Eastmoney's `{"rc":0,"data":…}` envelope. Returns `data`, or null when the upstream
 * knows nothing (`rc` ≠ 0 or `data: null`). Anything that is not that shape is `malformed`.
 * For the list namespace (`ulist.np`, `clist`) a nonzero `rc` is an answer: `rc` 102 with
 * `data: null` is what `ulist.np` says when it knows none of the secids asked
 * (test/fixtures/push2/SOURCE.md).
 */
export function readData(text: string): JsonObject | null {
  const { rc, data } = readEnvelope(text)
  return rc === 0 ? data : null
}

/**
 * For the hosts whose `rc` tells "nothing here" from "request not served" (`push2his`, `push2ex`): `rc` 0
 * gives `data` (null when empty), an `rc` in `nothing` (100 by default: kline/get's captured
 * "nothing for this secid", test/fixtures/push2/kline-no-data.json) gives null, and any other `rc`
 * (102: a request the host does not serve, or refuses) is a `malformed` failure, so the call fails
 * over rather than reporting "no data" for data that may exist.
 */
export function readDataOrRefusal(text: string, nothing: readonly number[] = [100]): JsonObject | null {
  const { rc, data } = readEnvelope(text)
  if (rc === 0) return data
  if (nothing.includes(rc)) return null
  throw malformed(CHANNEL, `upstream refused the request: rc ${rc}${data === null ? ', data null' : ''}`)
}
