/**
 * CSV text (RFC 4180) from rows of JSON values: the `format=csv` answers of tabular endpoints
 * (src/http/csv-answer.ts). Lines end in CRLF; the header row is the JSON field names; a field is
 * quoted when it holds `,`, `"`, CR or LF (a quote doubled inside). Cells carry the JSON answer's
 * values as its text has them: a string as it is, a number, `true` or `false` as `JSON.stringify`
 * writes them, `null` (or an absent field) as an empty field, and a nested object or array as its
 * JSON text (one cell, quoted when needed), so no value is lost or reshaped.
 */

/** One row of a table: a JSON object's fields. */
export type CsvRow = Readonly<Record<string, unknown>>

const NEEDS_QUOTES = /[",\r\n]/

/** One field as CSV text. */
export function csvCell(v: unknown): string {
  if (v === null || v === undefined) return ''
  const text = typeof v === 'string' ? v : JSON.stringify(v)
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

/** One line: the cells of `row` under `columns`, CRLF-terminated. */
export function csvLine(columns: readonly string[], row: CsvRow): string {
  let line = ''
  for (let k = 0; k < columns.length; k++) line += (k ? ',' : '') + csvCell(row[columns[k]])
  return line + '\r\n'
}

/** The header line of `columns`. */
export const csvHeader = (columns: readonly string[]): string => columns.map(csvCell).join(',') + '\r\n'

/** The columns of `rows`: every field name, in the order first seen (rows of one table share theirs). */
export function columnsOf(rows: readonly CsvRow[]): string[] {
  const seen = new Set<string>()
  for (const r of rows) for (const k of Object.keys(r)) seen.add(k)
  return [...seen]
}

/** The whole table: the header line, then one line per row. */
export function csvText(columns: readonly string[], rows: readonly CsvRow[]): string {
  let text = csvHeader(columns)
  for (const r of rows) text += csvLine(columns, r)
  return text
}
