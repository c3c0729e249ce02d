/**
 * How a host says it has banned us, read from its answer (what the real hosts send is recorded in
 * docs/upstreams.md, "When a host bans"): a refusing status, or a captcha / verification page
 * where data was expected. Such an answer is a `banned` failure, not an `http` or `malformed` one:
 * the channel's breaker opens at once and backs off (src/channels/circuit-breaker.ts).
 */

/**
 * Statuses that mean "you, stop": 403 (Sina's "Kinsoku jikou desu!" page, THS without its cookie,
 * Eastmoney), 429 Too Many Requests, and 456, Sina's answer to a client over its rate. Other
 * non-2xx statuses (502 and the like) stay `http` failures.
 */
const BAN_STATUSES: ReadonlySet<number> = new Set([403, 429, 456])

/** True when an answer's status says the host refuses us. */
export const isBanStatus = (status: number): boolean => BAN_STATUSES.has(status)

/**
 * A refusal page is short; data pages (Sina's dividend and holder tables, HKEX's CCASS result) are
 * longer, and are not searched at all, so that a word in their text cannot pass for a ban.
 */
const MAX_BAN_PAGE_CHARS = 16_384

/** Words of captcha, verification and rate-limit pages (Chinese and English), and Sina's refusal. */
const BAN_MARKERS = /captcha|验证码|滑动验证|安全验证|人机验证|访问验证|访问过于频繁|请求过于频繁|访问频繁|异常访问|kinsoku jikou/i

/** The code of `<`, the first character of an HTML page. */
const LT = 0x3c

/**
 * True when `text`, an answer where data was expected, is a ban page: an HTML page (or Sina's bare
 * refusal line) short enough to be one, carrying a captcha, verification or rate-limit marker. An
 * answer that does not start with `<` after leading white space (JSON, JSONP, Tencent's and Sina's
 * `v_…="…";` lines) is read no further, so the common case costs a character or two.
 */
export function isBanPage(text: string): boolean {
  if (text.length === 0 || text.length > MAX_BAN_PAGE_CHARS) return false
  let i = 0
  while (i < text.length && text.charCodeAt(i) <= 0x20) i++
  const first = text.charCodeAt(i)
  // Sina's refusal is one bare line; everything else of interest is HTML.
  if (first !== LT && first !== 0x4b /* K */) return false
  return BAN_MARKERS.test(text)
}

/**
 * Hosts whose empty 200 answer is a throttle, not an answer: Tencent sends an empty body to a burst
 * of requests (docs/upstreams.md), and none of its endpoints answers "nothing" that way
 * (an unknown code is `v_pv_none_match="1";`).
 */
const EMPTY_IS_BAN: ReadonlySet<string> = new Set(['tencent'])

/** True when an empty 200 answer from `channel` means it throttles us. */
export const isEmptyBan = (channel: string, byteLength: number): boolean => byteLength === 0 && EMPTY_IS_BAN.has(channel)
