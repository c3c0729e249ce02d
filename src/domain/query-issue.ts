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

/**
 * Longest piece of a caller's input any answer repeats (a 422's `input`, a code quoted in a message,
 * an MCP tool name or id): a 40 KB query is not worth returning whole. src/http/validation.ts applies it.
 */
export const ECHO_MAX_CHARS = 256

/** Text a caller sent, as an answer repeats it: whole within {@link ECHO_MAX_CHARS}, else cut there and marked `…`. */
export const echoed = (text: string): string => (text.length <= ECHO_MAX_CHARS ? text : `${text.slice(0, ECHO_MAX_CHARS)}…`)
