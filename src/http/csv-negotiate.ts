/**
 * Which form a tabular endpoint answers in: `format=csv` or `format=json` decides; without it, an
 * `Accept` header that names `text/csv` with a higher (or equal) weight than `application/json`
 * asks for CSV. Wildcards (`*\/*`, `text/*`) never pick CSV: a client that accepts anything gets
 * JSON, as it always has.
 */

export type AnswerFormat = 'json' | 'csv'

/** The media type of CSV answers (RFC 4180 §3, RFC 7111: UTF-8 and a header row). */
export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8; header=present'

/** The weight (q) of each media type an Accept header names; 1 when it gives none. */
function weights(accept: string): Map<string, number> {
  const out = new Map<string, number>()
  for (const part of accept.split(',')) {
    const [type, ...params] = part.split(';').map((s) => s.trim().toLowerCase())
    if (!type) continue
    let q = 1
    for (const p of params) if (p.startsWith('q=')) q = Number(p.slice(2))
    out.set(type, Number.isFinite(q) ? Math.max(out.get(type) ?? 0, q) : 0)
  }
  return out
}

/**
 * The form asked for by the `format` parameter (when valid) or else the Accept header. An invalid
 * `format` answers JSON here; the route's query schema refuses it with a 422 naming `format`.
 */
export function preferredFormat(format: string | undefined, accept: string | undefined): AnswerFormat {
  if (format === 'csv' || format === 'json') return format
  if (format !== undefined || !accept || !accept.toLowerCase().includes('text/csv')) return 'json'
  const w = weights(accept)
  const csv = w.get('text/csv') ?? 0
  return csv > 0 && csv >= (w.get('application/json') ?? 0) ? 'csv' : 'json'
}

/** True when an `Accept` header admits a JSON answer: no header, `application/json`, `application/*` or `*\/*` with a weight above 0. */
export function admitsJson(accept: string | undefined): boolean {
  if (!accept) return true
  const w = weights(accept)
  return ['application/json', 'application/*', '*/*'].some((t) => (w.get(t) ?? 0) > 0)
}
