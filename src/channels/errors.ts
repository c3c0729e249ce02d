/**
 * Typed channel failures. The failover moves to the next channel on any of them; the kind is
 * reported so a user (and the circuit breaker) can tell a slow upstream from a broken parser.
 * `banned` is a host refusing us for our volume (src/channels/ban.ts): its breaker opens at once
 * and backs off (src/channels/circuit-breaker.ts).
 */
/** `over_budget`: the service's own request budget for the host is spent this minute (src/channels/budget/host-budget.ts); nothing was sent. */
export type ChannelFailureKind = 'timeout' | 'http' | 'malformed' | 'empty' | 'unsupported' | 'network' | 'over_budget' | 'banned'

/**
 * A channel failure, as a caller reads it in an `ok:false` answer's `error` and `attempts`. Its
 * message says what went wrong in plain words, bounded ({@link plainWords}): never the upstream's
 * bytes themselves (gzip garbage, half a JSON document), which say nothing a caller can act on.
 */
export class ChannelError extends Error {
  constructor(
    readonly kind: ChannelFailureKind,
    readonly channel: string,
    message: string,
    /** The upstream's HTTP status, for `http` failures (and `banned` ones answered with a status). */
    readonly status?: number
  ) {
    super(`${channel}: ${kind}: ${plainWords(message)}`)
    this.name = 'ChannelError'
  }
}

/** Longest failure description kept, in characters. */
const MAX_WHY_CHARS = 200
/** Longest quoted fragment kept as it is (a field's value: "NaN", a table's id); a longer one is described. */
const MAX_QUOTED_CHARS = 40

/** Characters that are no text: controls (bar tab and line ends) and U+FFFD, what undecodable bytes become. */
const UNREADABLE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\ufffd]/

/** What a piece of an upstream's answer is, in a few words, never its content. */
function kindOf(text: string): string {
  const t = text.trimStart()
  if (t === '') return 'nothing'
  // A gzip member starts 1f 8b; decoded as text the second byte is U+FFFD (UTF-8) or another character (GBK).
  if (t.charCodeAt(0) === 0x1f) return 'gzip-compressed bytes'
  if (UNREADABLE.test(text)) return 'binary bytes'
  if (t.startsWith('<')) return 'an HTML page'
  if (t.startsWith('{') || t.startsWith('[')) return 'JSON cut short or broken'
  return 'text of another format'
}

/**
 * An upstream's answer described for a failure message: its size and what it looks like
 * (`1,234 characters: gzip-compressed bytes`), never its content.
 */
export const describeAnswer = (text: string): string => `${text.length.toLocaleString('en-US')} characters: ${kindOf(text)}`

/**
 * A failure's reason in plain words, bounded: every quoted fragment of the upstream's answer that
 * is long or unreadable is replaced by what it is (`(binary bytes left out)`), what is left of
 * unreadable characters is dropped, and the whole is cut to {@link MAX_WHY_CHARS} characters. A short,
 * readable fragment ("NaN", `"sharebonus_1"`) stays: it names the field that broke.
 */
export function plainWords(why: string): string {
  const out = why
    .replace(/"(?:[^"\\]|\\.)*"/g, (literal) => {
      let text: string
      try {
        text = JSON.parse(literal) as string
      } catch {
        return '(an excerpt left out)'
      }
      return text.length <= MAX_QUOTED_CHARS && !UNREADABLE.test(text) ? literal : `(${kindOf(text)} left out)`
    })
    .replace(new RegExp(UNREADABLE.source, 'g'), '')
  return out.length <= MAX_WHY_CHARS ? out : `${out.slice(0, MAX_WHY_CHARS)}…`
}

export const timeout = (channel: string, ms: number) => new ChannelError('timeout', channel, `no answer within ${ms} ms`)
export const httpError = (channel: string, status: number) => new ChannelError('http', channel, `HTTP ${status}`, status)
export const malformed = (channel: string, why: string) => new ChannelError('malformed', channel, why)
export const empty = (channel: string, why = 'no data') => new ChannelError('empty', channel, why)
export const unsupported = (channel: string, why: string) => new ChannelError('unsupported', channel, why)
export const network = (channel: string, why: string) => new ChannelError('network', channel, why)
/** The host refuses us (a ban status, a captcha page where data was expected): see src/channels/ban.ts. */
export const banned = (channel: string, why: string, status?: number) => new ChannelError('banned', channel, why, status)
