/**
 * `format=csv` and `Accept: text/csv` on the tabular endpoints (docs/api-guide.md, "CSV"), in one place: a route
 * declares which table of its JSON answer is the CSV ({@link CsvTable}) and `admittedRoute` does the
 * rest — the `format` (and `section`) query parameters, `text/csv` in the OpenAPI document, and the
 * two middlewares below. The handler is not touched: it answers JSON as always and the CSV is made
 * from that answer, so the numbers are exactly the JSON's, and admission, counting, refunds and the
 * anonymous cache (which only ever holds JSON) work as for JSON. The two large tables stream their
 * own CSV (src/http/csv-stream.ts) when {@link wantsCsv}.
 *
 * What stays JSON: every error (4xx, 429, 504, 500) with its status, and an `ok:false` answer (HTTP
 * 200, not counted): it has no table, and its `code` and `error` must reach the caller rather than
 * look like an empty table. A CSV client tells them apart by the Content-Type.
 */
import { z } from '@hono/zod-openapi'
import type { Context, MiddlewareHandler } from 'hono'
import { answeredOutcome } from './answer'
import type { AppEnv } from './context'
import { columnsOf, csvText, type CsvRow } from './csv'
import { admitsJson, CSV_CONTENT_TYPE, preferredFormat } from './csv-negotiate'
import { queryIssue, repeatedParams, ValidationError } from './validation'

/** A table of an answer: its rows, and its columns when the rows alone cannot say them (no rows, a fixed order). */
interface CsvRows {
  rows: readonly CsvRow[]
  columns?: readonly string[]
}

/** How a route's JSON answer becomes a CSV table. */
export interface CsvTable {
  /** The answer's sections, when it holds several tables: a CSV answer is one of them, picked by `section=`. */
  sections?: readonly [string, ...string[]]
  /** The table of an ok:true JSON answer (`section` given when the route has sections); undefined when the answer has no such section. */
  // The parsed JSON answer: each route reads its own shape.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  table(body: any, section: string | undefined): CsvRows | undefined
}

/**
 * `data` as the table: an array of rows; or a map of code → rows (several symbols in quote and
 * kline), written as one table with the code as a first column.
 */
export function dataTable(columns?: readonly string[]): CsvTable {
  return {
    table: (body) => {
      const data = body.data
      if (Array.isArray(data)) return { rows: data, columns }
      const rows: CsvRow[] = []
      for (const [code, list] of Object.entries(data as Record<string, CsvRow[]>)) for (const r of list) rows.push({ code, ...r })
      return { rows, columns: columns && ['code', ...columns] }
    },
  }
}

/**
 * The sectioned answers (`data.data` maps slug → rows): one section a CSV answer. `rows` maps
 * each slug to its row schema, whose fields are the columns (so an empty section still has its header).
 */
export function sectionTable(rows: Readonly<Record<string, ZodShaped>>): CsvTable {
  const sections = Object.keys(rows) as [string, ...string[]]
  return {
    sections,
    table: (body, section) => {
      const list = section === undefined ? undefined : (body.data?.data as Record<string, CsvRow[]> | undefined)?.[section]
      return list ? { rows: list, columns: schemaColumns(rows[section!]) } : undefined
    },
  }
}

/** A zod object schema (a row schema). */
type ZodShaped = { shape: Record<string, unknown> }

/** The field names of a zod object schema (a row schema), for a table's columns. */
export const schemaColumns = (schema: ZodShaped): string[] => Object.keys(schema.shape)

/** The `format` parameter every tabular route takes. */
const FormatParam = z
  .enum(['json', 'csv'], { error: 'format must be json or csv' })
  .optional()
  .openapi({ description: 'Answer form: `json` (default) or `csv` (RFC 4180, UTF-8, header row of the JSON field names); `Accept: text/csv` also asks for CSV. Errors and ok:false answers stay JSON.', example: 'csv' })

/** What every route without a table says of `format`: json is all it answers (the same words in the schema and the middleware). */
const JSON_ONLY = 'format must be json: this route has no table, so no CSV form (format=csv is for the tabular routes, docs/api-guide.md "CSV")'

/**
 * The `format` parameter of a route without a table: `json` only. `format` means the same on every
 * route (docs/api-guide.md, "CSV"): `json`, or `csv` where the route has a table; anything else,
 * `csv` here, or the parameter given twice is a 422 naming it ({@link jsonOnly}).
 */
const JsonOnlyFormatParam = z
  .enum(['json'], { error: JSON_ONLY })
  .optional()
  .openapi({ description: 'Answer form: `json`, the only one (this route has no table; `format=csv` is for the tabular routes). Any other value, or `format` given twice, is a 422.', example: 'json' })

/** The query of a route that takes no parameter but `format`. */
export const JsonOnlyQuery = z.object({ format: JsonOnlyFormatParam })

/** A query schema with the JSON-only `format` beside its own parameters ({@link JsonOnlyQuery} when the route has none). */
export function withJsonOnlyFormat<S>(query: S | undefined): S | typeof JsonOnlyQuery {
  if (query === undefined) return JsonOnlyQuery
  const q = query as unknown as { extend?: (shape: Record<string, z.ZodType>) => S }
  if (!q.extend) throw new Error('a route declaring format needs a z.object query schema')
  return q.extend({ format: JsonOnlyFormatParam })
}

/**
 * First on a route without a table: `format` other than `json`, given twice, or an `Accept` that
 * asks for CSV and admits no JSON (`text/csv` alone; src/http/csv-negotiate.ts) is a 422 naming `format` and its one value,
 * before admission, never counted. The query is parsed only when it may name `format`.
 */
export const jsonOnly = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  const url = c.req.url
  const q = url.indexOf('?')
  const values = q >= 0 && (url.includes('format', q) || url.includes('%', q)) ? (c.req.queries('format') ?? []) : []
  if (values.length > 1) throw new ValidationError(repeatedParams({ format: values }))
  if (values.length === 1 && values[0] !== 'json') throw new ValidationError([queryIssue('format', JSON_ONLY, values[0], 'enum')])
  // A JSON-only route answers JSON to any Accept that admits it, even one preferring CSV; one that admits only CSV is refused.
  if (values.length === 0 && !admitsJson(c.req.header('accept')) && preferredFormat(undefined, c.req.header('accept')) === 'csv') {
    throw new ValidationError([{ type: 'enum', loc: ['header', 'accept'], msg: `Accept asks for text/csv; ${JSON_ONLY}`, input: c.req.header('accept') ?? null }])
  }
  await next()
}

/** The route's query schema with `format` (and `section` for a sectioned route). */
export function withCsvParams<S>(query: S, table: CsvTable): S {
  const q = query as unknown as { extend?: (shape: Record<string, z.ZodType>) => S }
  if (!q?.extend) throw new Error('a CSV route needs a z.object query schema')
  const section: Record<string, z.ZodType> = table.sections
    ? { section: z.enum(table.sections, { error: `section must be one of ${table.sections.join(', ')}` }).optional().openapi({ description: `The table of a CSV answer: one of ${table.sections.join(', ')} (required with CSV; JSON answers carry every section)` }) }
    : {}
  return q.extend({ format: FormatParam, ...section })
}

/** The 200 response's content with `text/csv` declared beside `application/json`. */
export function withCsvContent<C>(content: C, table: CsvTable): C {
  const what = table.sections ? 'One section (`section=`) as CSV' : 'The table as CSV'
  return {
    ...content,
    'text/csv': {
      schema: z.string().openapi({ description: `${what}: RFC 4180, UTF-8, CRLF line ends, a header row of the JSON field names; null is an empty field, a nested value its JSON text. Only ok:true answers; an ok:false answer stays JSON.` }),
    },
  }
}

/** Whether this request is answered in CSV (set by {@link csvNegotiation}). */
export const wantsCsv = (c: Context<AppEnv>): boolean => c.get('answerFormat') === 'csv'

/**
 * First on a tabular route: every answer varies with Accept (a shared cache must not serve one
 * form for the other), and the form asked for is noted for the later stages.
 */
export const csvNegotiation = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  c.header('Vary', 'Accept', { append: true })
  c.set('answerFormat', preferredFormat(c.req.query('format'), c.req.header('accept')))
  await next()
}

/** The route's `check` for CSV: a sectioned route answers one section a CSV call, so `section` is required (a 422 before admission, never counted). */
export function csvCheck(c: Context<AppEnv>, query: Record<string, unknown>, table: CsvTable): void {
  if (table.sections && wantsCsv(c) && query.section === undefined) {
    throw new ValidationError([queryIssue('section', `a CSV answer is one section: add section= with one of ${table.sections.join(', ')}`, undefined, 'missing')])
  }
}

/**
 * After admission (and around the anonymous cache): turns an ok:true JSON answer into the CSV of
 * its table. Runs inside admission, so a call answered in CSV settles exactly as the JSON call.
 */
export const csvAnswer = (table: CsvTable): MiddlewareHandler<AppEnv> => async (c, next) => {
  await next()
  const res = c.res
  if (!wantsCsv(c) || res.status !== 200 || answeredOutcome(c)?.ok !== true || !res.headers.get('content-type')?.startsWith('application/json')) return
  const body = JSON.parse(await res.clone().text()) as { ok?: unknown }
  if (body.ok !== true) return
  const section = c.req.query('section')
  const t = table.table(body, section)
  if (!t) {
    // A section the route has, but not this answer (an HK code's shareholder sections differ): a 422; not counted.
    const present = Object.keys((body as { data?: { data?: object } }).data?.data ?? {})
    throw new ValidationError([queryIssue('section', `this answer has no section ${section}; it has ${present.join(', ') || 'none'}`, section)])
  }
  const headers = new Headers(res.headers)
  headers.set('content-type', CSV_CONTENT_TYPE)
  headers.delete('content-length')
  c.res = undefined
  c.res = new Response(csvText(t.columns ?? columnsOf(t.rows), t.rows), { status: 200, headers })
}
