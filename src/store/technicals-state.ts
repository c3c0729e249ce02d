/**
 * The indicator states after one trading day (`technicals/<date>.state.txt`), written beside the
 * day's technicals table by the same job: one line per stock, `<code>\t<state JSON>`, sorted by
 * code (src/domain/indicators/step.ts). The next session's live rows step from them.
 *
 * A whole market's states are some 20 MB of text, so a read keeps the text, finds each code's line
 * once, and decodes only the states a request asks for (each once per isolate): a 1,000-symbol
 * batch decodes 1,000 lines, not 5,500.
 */
import { decodeState, type StepState } from '../domain/indicators/step'
import { technicalsStateKey } from './keys'
import { memoisedReader } from './memo-read'

/** A day's states ready for lookups. */
export interface StatesDay {
  date: string
  size: number
  /** The state of `code` after `date`, or undefined when the day has none for it. */
  state(code: string): StepState | undefined
}

/** The states of a day from the stored text. */
export function statesDay(date: string, text: string): StatesDay {
  // code → [start, end) of its JSON in `text`
  const where = new Map<string, [number, number]>()
  let at = 0
  while (at < text.length) {
    let end = text.indexOf('\n', at)
    if (end < 0) end = text.length
    const tab = text.indexOf('\t', at)
    if (tab > at && tab < end) where.set(text.slice(at, tab), [tab + 1, end])
    at = end + 1
  }
  const decoded = new Map<string, StepState | undefined>()
  return {
    date,
    size: where.size,
    state(code) {
      if (decoded.has(code)) return decoded.get(code)
      const span = where.get(code)
      let s: StepState | undefined
      if (span) {
        try {
          s = decodeState(JSON.parse(text.slice(span[0], span[1])))
        } catch {
          s = undefined // a damaged line: that symbol is computed from its history instead
        }
      }
      // A state must be of the day it is filed under.
      if (s && s.date !== date) s = undefined
      decoded.set(code, s)
      return s
    },
  }
}

/** The text of a day's states from `code → state JSON`. */
export function statesText(states: ReadonlyMap<string, string>): string {
  return [...states].sort(([a], [b]) => (a < b ? -1 : 1)).map(([code, json]) => `${code}\t${json}`).join('\n')
}

/** Stores a day's states; returns the bytes written. */
export async function writeStates(bucket: R2Bucket, date: string, states: ReadonlyMap<string, string>): Promise<number> {
  const text = statesText(states)
  await bucket.put(technicalsStateKey(date), text, { httpMetadata: { contentType: 'text/plain' }, customMetadata: { rows: String(states.size) } })
  return text.length
}

/**
 * A day's states, read once per isolate and version. One day at a time: the text is large, and
 * only the latest table's states are stepped (live rows, and the after-close job's next day).
 */
const read = memoisedReader(async (obj, key) => statesDay(key.slice('technicals/'.length, -'.state.txt'.length), await obj.text()), 1)

/** A day's states; undefined when the day has none. */
export const readStates = (bucket: R2Bucket, date: string, now = Date.now()): Promise<StatesDay | undefined> => read(bucket, technicalsStateKey(date), now)
