/**
 * FastAPI-shaped validation errors: the original service is FastAPI and its clients parse
 * `{"detail":[{"type","loc","msg","input"}]}` with HTTP 422.
 */
export interface ValidationIssue {
  type: string
  loc: (string | number)[]
  msg: string
  input: unknown
}

/** Thrown anywhere in a handler to answer 422 with these issues. */
export class ValidationError extends Error {
  constructor(readonly issues: ValidationIssue[]) {
    super(issues.map((i) => `${i.loc.join('.')}: ${i.msg}`).join('; '))
    this.name = 'ValidationError'
  }
}

/** One query-parameter issue. */
export function queryIssue(field: string, msg: string, input: unknown, type = 'value_error'): ValidationIssue {
  return { type, loc: ['query', field], msg, input }
}

export const validationBody = (issues: ValidationIssue[]) => ({ detail: issues })

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
