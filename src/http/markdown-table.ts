/**
 * A Markdown table as text: the paste-ready `data` of table-shaped endpoints (trade-calendar,
 * screen), beside the same rows as objects in `structured`.
 */

/** One cell: booleans and numbers print as JSON does; `|` and line breaks are escaped so a cell never splits the table. */
function cell(v: unknown): string {
  if (v === null || v === undefined) return ''
  return String(v).replaceAll('\\', '\\\\').replaceAll('|', '\\|').replace(/\r?\n/g, ' ')
}

/** The table of `rows` under `columns` (header, separator, one line per row), ending in a newline. */
export function markdownTable<K extends string>(columns: readonly K[], rows: ReadonlyArray<Record<K, unknown>>): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |\n`
  return line(columns.map(cell)) + line(columns.map(() => '---')) + rows.map((r) => line(columns.map((c) => cell(r[c])))).join('')
}
