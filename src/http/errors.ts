import type { Context, ErrorHandler, NotFoundHandler } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { ApiError } from './api-error'
import type { AppEnv } from './context'
import { ValidationError, validationBody } from './validation'

/** The one place that turns anything thrown into the API's error contract. */
export const onError: ErrorHandler<AppEnv> = (err, c) => {
  if (err instanceof ValidationError) return c.json(validationBody(err.issues), 422)
  if (err instanceof ApiError) {
    for (const [k, v] of Object.entries(err.headers)) c.header(k, v)
    return c.json(err.toBody(), err.status as 401)
  }
  if (err instanceof HTTPException && err.status < 500) {
    return c.json({ error: err.message || 'bad request', code: 'BAD_REQUEST' }, err.status)
  }
  // A bug: log it with the request id, answer without internals.
  const requestId = c.get('requestId')
  console.error(`[${requestId}] unhandled`, err)
  return c.json({ error: 'internal error; please report the request_id', code: 'INTERNAL', request_id: requestId }, 500)
}

export const notFound: NotFoundHandler<AppEnv> = (c: Context<AppEnv>) =>
  c.json({ error: `no route ${c.req.method} ${c.req.path}; see /openapi.json`, code: 'NOT_FOUND' }, 404)
