/** The minute window after a call, for the X-RateLimit-* headers (keyed and anonymous alike). */
export interface RateWindow {
  limit: number
  remaining: number
  resetSeconds: number
}
