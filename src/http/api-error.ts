/** Machine codes for every non-validation error the API returns, with their HTTP status. */
const ERROR_STATUS = {
  /** A request the router cannot read at all (a malformed URL or body before validation). */
  BAD_REQUEST: 400,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  KEY_CONFLICT: 400,
  KEY_REQUIRED: 401,
  KEY_INVALID: 401,
  TIER_TOO_LOW: 403,
  IP_NOT_ALLOWED: 403,
  PACK_EXHAUSTED: 403,
  RATE_LIMITED: 429,
  HEAVY_QUOTA: 429,
  ROWS_EXHAUSTED: 429,
  /** Push quotes (`GET /v1/stream`): the key has as many connections open as its tier allows. */
  STREAM_LIMIT: 429,
  /** Push quotes: a client fell too far behind and was dropped. Sent only as a stream's last `error` event. */
  SLOW_CONSUMER: 429,
  POW_DISABLED: 503,
  /** The request deadline passed (src/http/deadline.ts); the 504 itself is an ok:false envelope. */
  DEADLINE_EXCEEDED: 504,
  INTERNAL: 500,
} as const
export type ErrorCode = keyof typeof ERROR_STATUS

/** Every error code, as /openapi.json lists them for clients to handle. */
export const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]

/** An error a person can act on; rendered as `{error, code}` with the code's status. */
export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {}
  ) {
    super(message)
    this.name = 'ApiError'
  }

  get status(): number {
    return ERROR_STATUS[this.code]
  }

  toBody(): Record<string, unknown> {
    return { error: this.message, code: this.code, ...this.extra }
  }
}
