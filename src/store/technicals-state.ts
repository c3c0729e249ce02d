/**
 * The text of a day's indicator states: one line per stock, `<code>\t<state JSON>`, sorted by
 * code (src/domain/indicators/step.ts). The next session's live rows step from them. They are
 * stored in shards by code (src/store/state-shards.ts); dates written before the shards have them
 * in one file, `technicals/<date>.state.txt`, which is read as a stream keeping only the lines
 * asked for ({@link pickStateLines}).
 *
 * A lookup keeps the text, finds each code's line once, and decodes only the states asked for
 * (each once).
 */
import { decodeState } from '../domain/indicators/step'
import type { StepState } from '../domain/indicators/step-state'

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

/**
 * The lines of `codes` in a states text read as a stream (the one-file layout of older dates),
 * as a text of those lines only, and how many lines the whole text has: it is never held whole.
 */
export async function pickStateLines(body: ReadableStream<Uint8Array>, codes: Iterable<string>): Promise<{ text: string; lines: number }> {
  const want = new Set(codes)
  const picked: string[] = []
  let lines = 0
  const keep = (line: string) => {
    const tab = line.indexOf('\t')
    if (tab > 0) lines++
    if (tab > 0 && want.has(line.slice(0, tab))) picked.push(line)
  }
  let carry = ''
  const reader = body.pipeThrough(new TextDecoderStream()).getReader()
  for (;;) {
    const { value, done } = await reader.read()
    if (done) break
    carry += value
    let at = 0
    for (let nl = carry.indexOf('\n'); nl >= 0; nl = carry.indexOf('\n', at)) {
      keep(carry.slice(at, nl))
      at = nl + 1
    }
    carry = carry.slice(at)
  }
  if (carry) keep(carry)
  return { text: picked.join('\n'), lines }
}
