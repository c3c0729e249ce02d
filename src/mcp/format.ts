/**
 * A route's answer as an MCP tool result built for an agent's context window: a short text with
 * one CSV table per list in the answer (at most `limit` rows each, and a line saying what was cut and
 * how to narrow the query), plus `structuredContent`: the route's JSON, its lists cut alike.
 * A refusal or a failed call is an `isError` result carrying the route's own wording.
 */
import { ECHO_MAX_CHARS } from '../http/validation'
import type { RouteAnswer } from './dispatch'
import { DEFAULT_ROW_LIMIT } from './tools'

/** The result of `tools/call` (the SDK's CallToolResult, in the fields we use). */
export interface ToolResult {
  [key: string]: unknown
  content: { type: 'text'; text: string }[]
  structuredContent?: Record<string, unknown>
  isError?: boolean
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
type JsonObject = { [key: string]: Json }

/** One table of the text: a name (its place in the answer; empty for the answer's own list) and its rows. */
interface Table {
  name: string
  rows: JsonObject[]
  /** Rows in the answer before the cut. */
  total: number
}

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v)

/** A successful answer (HTTP 200, `ok:true`) as text tables and structured content; anything else as an error result. */
export function toolResult(answer: RouteAnswer, limit: number): ToolResult {
  const body = answer.body
  if (answer.status !== 200 || !isObject(body) || body.ok !== true) return errorResult(answer, 'route', limit)
  const { value: data, totals } = capLists(body.data ?? null, limit)
  const structured: JsonObject = { ...body, data }
  const lines = [headline(body)]
  const tables: Table[] = []
  const texts: string[] = []
  collect(data, '', tables, texts, totals)
  for (const t of texts) lines.push(t)
  for (const t of tables) lines.push(...tableText(t))
  const cut = tables.filter((t) => t.total > t.rows.length)
  if (cut.length) {
    const rows = cut.reduce((n, t) => n + t.total - t.rows.length, 0)
    lines.push(`${rows} rows cut (limit ${limit}); narrow with fewer codes, a shorter start/end range or count, or raise limit (at most 1000).`)
    structured.rows_cut = rows
  }
  return { content: [{ type: 'text', text: lines.join('\n') }], structuredContent: structured }
}

/**
 * What an error result says: the route's own message, its code, the field a 422 names, when to retry
 * a 429. `from` says who refused: the route (its HTTP status leads the text) or the tool's own
 * argument check, before any request.
 */
export function errorResult(answer: RouteAnswer, from: 'route' | 'tool' = 'route', limit = DEFAULT_ROW_LIMIT): ToolResult {
  const body = answer.body
  // An error carries no data worth a long text: every string in it is cut as the text's message is,
  // and its lists (an ok:false batch's failed items) to `limit`, so no echo of a hostile input runs long.
  const structured = boundedStrings(capLists((isObject(body) ? { status: answer.status, ...body } : { status: answer.status, error: String(body) }) as Json, limit).value) as JsonObject
  let text: string
  if (isObject(body) && Array.isArray(body.detail)) {
    const issues = body.detail.filter(isObject).map((d) => {
      const field = Array.isArray(d.loc) ? d.loc.slice(1).join('.') || d.loc.join('.') : '?'
      // Both already bounded by the 422 (src/http/validation.ts): a cut input says so.
      const got = d.input === undefined || d.input === null ? '' : ` (got ${JSON.stringify(d.input)}${d.input_truncated === true ? `… of ${String(d.input_length)} characters` : ''})`
      return `${field}: ${String(d.msg)}${got}`
    })
    text = `${from === 'route' ? `HTTP ${answer.status} ` : ''}invalid argument: ${issues.join('; ')}`
  } else if (isObject(body)) {
    const code = typeof body.code === 'string' ? body.code : ''
    text = `${from === 'route' ? `HTTP ${answer.status} ${code}` : code}: ${bounded(String(body.error ?? 'no answer'))}`
    if (answer.status === 200) text += ' (this call was not counted)'
  } else {
    text = `HTTP ${answer.status}: ${bounded(String(body))}`
  }
  const retryAfter = isObject(body) && typeof body.retry_after === 'number' ? body.retry_after : answer.retryAfter
  if (retryAfter !== undefined) {
    text += ` retry_after: ${retryAfter} s`
    structured.retry_after = retryAfter
  }
  return { content: [{ type: 'text', text }], structuredContent: structured, isError: true }
}

/** An error message as the text shows it: at most twice the echo bound, as a 422's `msg` (src/http/validation.ts). */
const bounded = (message: string) => (message.length <= 2 * ECHO_MAX_CHARS ? message : `${message.slice(0, 2 * ECHO_MAX_CHARS)}…`)

/** `value` with every string longer than twice the echo bound cut (a 422's `msg` bound, src/http/validation.ts). */
function boundedStrings(value: Json): Json {
  if (typeof value === 'string') return bounded(value)
  if (Array.isArray(value)) return value.map(boundedStrings)
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [bounded(k), boundedStrings(v)]))
  return value
}

/** The first line: endpoint, source and the answer's own notes (as_of, notice). */
function headline(body: JsonObject): string {
  const parts = [`${String(body.endpoint)} (source ${String(body.source)}`]
  for (const key of ['as_of', 'date'] as const) if (typeof body[key] === 'string') parts.push(`${key} ${body[key]}`)
  let line = parts.join(', ') + ')'
  if (typeof body.notice === 'string') line += `\nnotice: ${body.notice}`
  return line
}

/**
 * A copy of `value` whose lists hold at most `limit` items, with the original length of each list
 * that was cut (by the list itself, so the tables can say it).
 */
function capLists(value: Json, limit: number): { value: Json; totals: Map<Json[], number> } {
  const totals = new Map<Json[], number>()
  const cap = (v: Json): Json => {
    if (Array.isArray(v)) {
      const kept = v.slice(0, limit).map(cap)
      if (v.length > limit) totals.set(kept, v.length)
      return kept
    }
    if (isObject(v)) {
      const out: JsonObject = {}
      for (const [k, x] of Object.entries(v)) out[k] = cap(x)
      return out
    }
    return v
  }
  return { value: cap(value), totals }
}

/**
 * The tables of an answer's `data`: each list of objects is a table; the other fields of an object
 * are one `field,value` table (a nested object's fields named `outer.inner`); a list of lists (sections) gives a table per section; text is kept
 * as it is. An object with `tables: [{title, rows}]` (and the same rows again under `data`) shows
 * its tables once.
 */
function collect(value: Json, name: string, tables: Table[], texts: string[], totals: Map<Json[], number>): void {
  const total = (rows: Json[]) => totals.get(rows) ?? rows.length
  if (typeof value === 'string') {
    texts.push(value)
  } else if (Array.isArray(value)) {
    if (value.every(isObject)) tables.push({ name, rows: value, total: total(value) })
    else if (value.every(Array.isArray)) value.forEach((v, i) => collect(v, `${name}[${i}]`, tables, texts, totals))
    else tables.push({ name, rows: value.map((v) => ({ value: v })), total: total(value) })
  } else if (isObject(value)) {
    const titled = Array.isArray(value.tables) && value.tables.every((t) => isObject(t) && Array.isArray(t.rows))
    const fields: JsonObject = {}
    const own: Table = { name, rows: [], total: 0 }
    tables.push(own)
    for (const [k, v] of Object.entries(value)) {
      const path = name ? `${name}.${k}` : k
      if (titled && (k === 'tables' || k === 'data')) continue
      if (Array.isArray(v) && v.length > 0 && v.every((x) => isObject(x) || Array.isArray(x))) collect(v, path, tables, texts, totals)
      else if (isObject(v) && Object.values(v).some((x) => Array.isArray(x) && x.length > 0 && x.every(isObject))) collect(v, path, tables, texts, totals)
      else if (isObject(v)) for (const [k2, v2] of Object.entries(v)) fields[`${k}.${k2}`] = isObject(v2) ? JSON.stringify(v2) : v2
      else fields[k] = v
    }
    if (titled) for (const t of value.tables as JsonObject[]) collect(t.rows, String(t.title ?? t.slug ?? ''), tables, texts, totals)
    if (Object.keys(fields).length) own.rows = Object.entries(fields).map(([field, v]) => ({ field, value: v }))
    if (!own.rows.length) tables.splice(tables.indexOf(own), 1)
    else own.total = own.rows.length
  } else if (value !== null) {
    texts.push(String(value))
  }
}

/** A table as CSV lines (RFC 4180 quoting), nested objects of a row flattened one level (`data.close`), under a `## name` line. */
function tableText(t: Table): string[] {
  const rows = t.rows.map(flatten)
  const columns: string[] = []
  const seen = new Set<string>()
  for (const r of rows)
    for (const k of Object.keys(r))
      if (!seen.has(k)) {
        seen.add(k)
        columns.push(k)
      }
  const lines = t.name ? [`## ${t.name}${t.total > rows.length ? ` (${rows.length} of ${t.total} rows)` : ''}`] : t.total > rows.length ? [`(${rows.length} of ${t.total} rows)`] : []
  lines.push(columns.map(csvCell).join(','))
  for (const r of rows) lines.push(columns.map((c) => csvCell(r[c])).join(','))
  return lines
}

function flatten(row: JsonObject): Record<string, Json | undefined> {
  const out: Record<string, Json | undefined> = {}
  for (const [k, v] of Object.entries(row)) {
    if (isObject(v)) for (const [k2, v2] of Object.entries(v)) out[`${k}.${k2}`] = v2
    else out[k] = v
  }
  return out
}

/** One CSV cell: empty for null, JSON for a list or object, quoted when it holds a comma, quote or line break. */
export function csvCell(v: Json | undefined): string {
  const s = v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v)
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s
}
