import { empty, malformed } from '../errors'
import { CHANNEL } from './fetch'

/**
 * The row list of a Sina JSONP answer (`<var>=([{…}, …]);`, getKLineData and getDailyKLine): the
 * payload between the first `=(` and the last `)` (a leading comment line may precede it).
 * `(null)` (unknown symbol) and `([])` are `empty`; anything else that is not a JSON list is
 * `malformed`. `what` names the answer in messages.
 */
export function jsonpRows(text: string, what: string): unknown[] {
  const open = text.indexOf('=(')
  const close = text.lastIndexOf(')')
  if (open < 0 || close < open) throw malformed(CHANNEL, `${what} answer has no =(…) wrapper`)
  let rows: unknown
  try {
    rows = JSON.parse(text.slice(open + 2, close))
  } catch {
    throw malformed(CHANNEL, `${what} payload is not JSON`)
  }
  if (rows === null) throw empty(CHANNEL, `unknown symbol (${what})`)
  if (!Array.isArray(rows)) throw malformed(CHANNEL, `${what} payload is not an array`)
  if (rows.length === 0) throw empty(CHANNEL, `no bars (${what})`)
  return rows
}
