// @ts-check
/**
 * The page's calls to /v1/kline as the access layer wants them. A key goes in
 * `Authorization: Bearer` (never in the URL). Without a key, an anonymous browser gets 5 calls a
 * minute; the 429 that ends them carries a proof-of-work challenge, which the page solves (in a
 * Web Worker) and sends back as `X-PoW` with this and every later call until it expires: 60 calls
 * a minute for 10 minutes. A 429 that a proof would not lift (the raised allowance used up too)
 * is shown as it is.
 */
import { MINUTE_PERIODS } from './bars.js'

/** Bars per call: an anonymous call may ask for at most 250; a keyed one for up to 1,212. */
export const BARS = { anonymous: 250, keyed: 1000 }

/**
 * The path of one chart's bars.
 * @param {string} code
 * @param {string} period
 * @param {boolean} keyed
 */
export function klinePath(code, period, keyed) {
  const q = new URLSearchParams({ code, period, count: String(keyed ? BARS.keyed : BARS.anonymous) })
  return `/v1/kline?${q}`
}

/**
 * @typedef {{ challenge: string, difficulty: number, raises_allowance: boolean, raises_to_per_minute: number, expires_in: number }} Challenge
 * @typedef {{ status: number, body: any }} Answer
 * @typedef {{ ok: true, body: any, solved: boolean } | { ok: false, status: number, message: string, solved: boolean }} Outcome
 * @typedef {{
 *   fetch: (path: string, init: { headers: Record<string, string> }) => Promise<Response>,
 *   key: () => string | null,
 *   proof: () => string | null,
 *   solve: (challenge: Challenge) => Promise<void>,
 * }} Caller
 */

/**
 * Whether solving the challenge of a 429 would let the call through: it raises the allowance
 * above the one this call was refused under.
 * @param {Answer} a
 */
export function proofWouldHelp(a) {
  const c = a.body?.challenge
  return a.status === 429 && c?.raises_allowance === true && typeof a.body.limit === 'number' && a.body.limit < c.raises_to_per_minute
}

/**
 * What a refusal or a failed envelope says, in the API's words.
 * @param {Answer} a
 */
export function messageOf(a) {
  const b = a.body
  if (typeof b?.error === 'string') return b.retry_after !== undefined ? `${b.error} (retry in ${b.retry_after} s)` : b.error
  if (Array.isArray(b?.detail)) return b.detail.map((/** @type {{ msg: string }} */ d) => d.msg).join('; ')
  return `HTTP ${a.status}`
}

/**
 * One chart's bars: the call, and for an anonymous caller refused for the minute, one solve and
 * one retry.
 * @param {string} code
 * @param {string} period
 * @param {Caller} caller
 * @returns {Promise<Outcome>}
 */
export async function loadKline(code, period, caller) {
  const key = caller.key()
  const path = klinePath(code, period, key !== null)
  let answer = await call(path, caller)
  let solved = false
  if (key === null && proofWouldHelp(answer)) {
    await caller.solve(answer.body.challenge)
    solved = true
    answer = await call(path, caller)
  }
  if (answer.status === 200 && answer.body?.ok === true && Array.isArray(answer.body.data)) return { ok: true, body: answer.body, solved }
  const needsKey = key === null && MINUTE_PERIODS.includes(period) && answer.status === 401
  const message = needsKey ? `${period} bars need an API key of tier standard or above: ${messageOf(answer)}` : messageOf(answer)
  return { ok: false, status: answer.status, message, solved }
}

/**
 * @param {string} path
 * @param {Caller} caller
 * @returns {Promise<Answer>}
 */
async function call(path, caller) {
  /** @type {Record<string, string>} */
  const headers = { Accept: 'application/json' }
  const key = caller.key()
  const proof = caller.proof()
  if (key !== null) headers.Authorization = `Bearer ${key}`
  else if (proof !== null) headers['X-PoW'] = proof
  const res = await caller.fetch(path, { headers })
  const body = await res.json().catch(() => null)
  return { status: res.status, body }
}

/**
 * The solved proof, kept for the tab in `sessionStorage` until its challenge expires (measured
 * on this machine's clock from `expires_in`, so a skewed clock does not matter).
 * @param {{ getItem(k: string): string | null, setItem(k: string, v: string): void, removeItem(k: string): void }} storage
 * @param {() => number} now
 */
export function proofStore(storage, now) {
  const KEY = 'chart.pow'
  return {
    /** @returns {string | null} */
    get() {
      try {
        const kept = JSON.parse(storage.getItem(KEY) ?? 'null')
        if (kept && typeof kept.header === 'string' && kept.until > now()) return kept.header
      } catch {
        // not ours: forget it
      }
      storage.removeItem(KEY)
      return null
    },
    /**
     * @param {string} header
     * @param {number} expiresIn seconds
     */
    set(header, expiresIn) {
      storage.setItem(KEY, JSON.stringify({ header, until: now() + expiresIn * 1000 }))
    },
  }
}
