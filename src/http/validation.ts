import { ECHO_MAX_CHARS, queryIssue, type Planned, type QueryIssue } from '../domain/query-issue'
/**
 * FastAPI-shaped validation errors: the original service is FastAPI and its clients parse
 * `{"detail":[{"type","loc","msg","input"}]}` with HTTP 422.
 */
export interface ValidationIssue extends QueryIssue {
  /** Set when `input` was cut to {@link ECHO_MAX_CHARS} characters. */
  input_truncated?: true
  /** The length of the whole input, when cut. */
  input_length?: number
}

/** Thrown anywhere in a handler to answer 422 with these issues. */
export class ValidationError extends Error {
  constructor(readonly issues: ValidationIssue[]) {
    super(issues.map((i) => `${i.loc.join('.')}: ${i.msg}`).join('; '))
    this.name = 'ValidationError'
  }
}

export { queryIssue }

/** The plan of a domain rule, or its issues thrown as the 422. */
export function planOr422<T>(r: Planned<T>): T {
  if (!r.ok) throw new ValidationError(r.issues)
  return r.plan
}

/**
 * Longest `input` echoed back (256 characters, src/domain/query-issue.ts): a 40 KB query is not worth
 * returning whole. The same bound holds for every echo of what a caller sent, on every edge (/mcp's
 * tool names, arguments and ids: {@link quotedExcerpt}).
 */
export { ECHO_MAX_CHARS }

/** A value as a message quotes it: JSON text, cut to {@link ECHO_MAX_CHARS} characters with `…` and its length when longer. */
export function quotedExcerpt(value: string): string {
  if (value.length <= ECHO_MAX_CHARS) return JSON.stringify(value)
  return `${JSON.stringify(value.slice(0, ECHO_MAX_CHARS))}… (${value.length} characters)`
}

/** A `loc` entry as echoed: a name sent by the caller (an unknown argument's) is cut like an input. */
const boundedLoc = (part: string | number) => (typeof part === 'string' && part.length > ECHO_MAX_CHARS ? `${part.slice(0, ECHO_MAX_CHARS)}…` : part)

/**
 * The issue as sent: an `input` past {@link ECHO_MAX_CHARS} is cut, and says so (`input_truncated`,
 * `input_length`). A query value is always a string; a JSON argument (an MCP tool's) may be a list or
 * an object, which is echoed whole while its JSON text is within the bound, else as that text cut.
 */
function bounded(issue: ValidationIssue): ValidationIssue {
  const input = issue.input
  // A message may quote the input (`'xxx…' is not a code`): cut that quote too.
  const msg = issue.msg.length <= 2 * ECHO_MAX_CHARS ? issue.msg : `${issue.msg.slice(0, 2 * ECHO_MAX_CHARS)}…`
  const loc = issue.loc.some((p) => typeof p === 'string' && p.length > ECHO_MAX_CHARS) ? issue.loc.map(boundedLoc) : issue.loc
  const text = typeof input === 'string' || input === null || input === undefined || typeof input !== 'object' ? input : JSON.stringify(input)
  if (typeof text !== 'string' || text.length <= ECHO_MAX_CHARS) return msg === issue.msg && loc === issue.loc ? issue : { ...issue, msg, loc }
  return { ...issue, msg, loc, input: text.slice(0, ECHO_MAX_CHARS), input_truncated: true, input_length: text.length }
}

export const validationBody = (issues: ValidationIssue[]) => ({ detail: issues.map(bounded) })

/**
 * Single-valued parameters given more than once (`?code=a&code=b`): every parameter of ours takes
 * one value (several codes go comma-separated in one), so a repeat is a 422 naming it rather than
 * a silent choice of one of the values. `known` limits the check to the route's own parameters;
 * `key` is left to admission (two different keys are a KEY_CONFLICT).
 */
export function repeatedParams(queries: Record<string, string[]>, known?: ReadonlySet<string>): ValidationIssue[] {
  const issues: ValidationIssue[] = []
  for (const [name, values] of Object.entries(queries)) {
    if (values.length < 2 || name === 'key' || (known && !known.has(name))) continue
    issues.push(queryIssue(name, `${name} is given ${values.length} times; give it once (several codes go comma-separated in one value)`, values.join(','), 'value_error'))
  }
  return issues
}

/**
 * Whether the query of `url` may name a parameter twice, read from the raw text: false only when
 * every name is plain (no `%` or `+`, which would need decoding to compare) and none repeats. Most
 * calls repeat nothing, so only a query that may repeat is parsed into lists (`c.req.queries()`):
 * an admitted call otherwise parsed its whole query twice (about a tenth of Hono's query parsing in
 * a keyed /v1/quote over HTTP, `npm run profile -- '/v1/quote?code=sh600519' 3000 http`).
 */
export function mayRepeatParams(url: string): boolean {
  const q = url.indexOf('?')
  if (q < 0) return false
  const hash = url.indexOf('#', q)
  const names = new Set<string>()
  for (const part of url.slice(q + 1, hash < 0 ? undefined : hash).split('&')) {
    if (part === '') continue
    const eq = part.indexOf('=')
    const name = eq < 0 ? part : part.slice(0, eq)
    if (name.includes('%') || name.includes('+') || names.has(name)) return true
    names.add(name)
  }
  return false
}

interface ZodLikeIssue {
  code: string
  path: PropertyKey[]
  message: string
  input?: unknown
  expected?: string
}

/** Maps zod issues to FastAPI's `detail` entries, keeping our readable messages. */
export function fromZodIssues(issues: readonly ZodLikeIssue[], where: 'query' | 'body' | 'path', raw: Record<string, unknown>): ValidationIssue[] {
  return issues.map((i) => {
    const field = String(i.path[0] ?? '')
    const input = field in raw ? raw[field] : undefined
    const missing = input === undefined
    return {
      type: missing ? 'missing' : fastApiType(i),
      loc: [where, ...i.path.map((p) => (typeof p === 'number' ? p : String(p)))],
      msg: missing ? 'Field required' : i.message,
      input: missing ? null : input,
    }
  })
}

function fastApiType(i: ZodLikeIssue): string {
  switch (i.code) {
    case 'too_small':
      return 'greater_than_equal'
    case 'too_big':
      return 'less_than_equal'
    case 'invalid_type':
      return i.expected === 'number' || i.expected === 'int' ? 'int_parsing' : 'type_error'
    case 'invalid_value':
      return 'enum'
    case 'invalid_format':
      return 'string_pattern_mismatch'
    default:
      return 'value_error'
  }
}
