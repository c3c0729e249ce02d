/**
 * CSV answers written as they are sent, for the large tables (/v1/kline-full, /v1/market-kline):
 * rows are turned into lines a chunk at a time as the client reads, so the worker never holds the
 * whole answer (its memory stays flat in the table's size).
 */
import type { Context } from 'hono'
import { answerBody } from './answer'
import type { AppEnv, Outcome } from './context'
import { csvHeader, csvLine, type CsvRow } from './csv'
import { CSV_CONTENT_TYPE } from './csv-negotiate'

/** Lines per chunk: some 60 KB of K-line rows (a whole history in three chunks), so the per-chunk cost stays small and memory stays bounded. */
const LINES_PER_CHUNK = 1024

const utf8 = new TextEncoder()

/** The table as a byte stream: the header, then `rows` read lazily, {@link LINES_PER_CHUNK} lines a chunk. */
export function csvRowStream(columns: readonly string[], rows: Iterable<CsvRow>): ReadableStream<Uint8Array> {
  const it = rows[Symbol.iterator]()
  let head = csvHeader(columns)
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      let text = head
      head = ''
      for (let n = 0; n < LINES_PER_CHUNK; n++) {
        const next = it.next()
        if (next.done) {
          if (text) controller.enqueue(utf8.encode(text))
          controller.close()
          return
        }
        text += csvLine(columns, next.value)
      }
      controller.enqueue(utf8.encode(text))
    },
  })
}

/**
 * Reads a JSON array of objects (a stored blob, as text chunks) and writes its CSV lines under
 * `columns`, header first: each object is parsed once its closing brace arrives, so only the
 * current object is ever held. The input must be one JSON array of objects.
 */
export function jsonArrayToCsv(columns: readonly string[]): TransformStream<string, string> {
  let pending = '' // the unfinished object's text so far
  let depth = 0 // 0 outside the array, 1 between objects, 2+ inside one
  let inString = false
  let escaped = false
  return new TransformStream<string, string>({
    start(controller) {
      controller.enqueue(csvHeader(columns))
    },
    transform(chunk, controller) {
      let out = ''
      let from = depth >= 2 ? 0 : -1 // where the current object starts in this chunk
      for (let i = 0; i < chunk.length; i++) {
        const ch = chunk.charCodeAt(i)
        if (inString) {
          if (escaped) escaped = false
          else if (ch === 92) escaped = true // '\'
          else if (ch === 34) inString = false // '"'
        } else if (ch === 34) inString = true
        else if (ch === 123 || ch === 91) {
          // '{' or '['
          if (depth === 1) from = i
          depth++
        } else if (ch === 125 || ch === 93) {
          // '}' or ']'
          depth--
          if (depth === 1) {
            out += csvLine(columns, JSON.parse(pending + chunk.slice(from, i + 1)) as CsvRow)
            pending = ''
            from = -1
          }
        }
      }
      if (depth >= 2) pending += chunk.slice(from)
      if (out) controller.enqueue(out)
    },
    flush() {
      if (depth !== 0 || pending) throw new Error('the JSON array ended mid-way')
    },
  })
}

/** A 200 answer whose body is the CSV stream; through `c.body`, so the headers set before the handler (rate limits, request id) stay. */
export function csvStreamResponse(c: Context<AppEnv>, body: ReadableStream<Uint8Array>, outcome: Outcome): Response {
  return answerBody(c, body, outcome, { 'content-type': CSV_CONTENT_TYPE })
}
