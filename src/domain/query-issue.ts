/**
 * What is wrong with one query parameter, as the domain's rules find it: data, not an error. A
 * route turns a list of them into its 422 (src/http/validation.ts), in FastAPI's issue shape.
 */
export interface QueryIssue {
  type: string
  loc: (string | number)[]
  msg: string
  input: unknown
}

/** One query-parameter issue. */
export function queryIssue(field: string, msg: string, input: unknown, type = 'value_error'): QueryIssue {
  return { type, loc: ['query', field], msg, input }
}

/** A rule's answer: what to do, or every issue that stops it. */
export type Planned<T> = { ok: true; plan: T } | { ok: false; issues: QueryIssue[] }
