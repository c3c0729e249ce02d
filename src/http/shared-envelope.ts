/**
 * Envelopes of shared answers (the market cache behind /v1/hot and /v1/changedist: one answer for
 * every caller within its freshness window). Serialising the answer's rows is most of such a
 * call's own work, and the rows are the same for every caller: the text from `source` on is made
 * once per answer and variant (hot's `limit`) and kept as UTF-8 bytes, and each call writes only
 * its own `tier` and `elapsed_ms` before them. Kept as bytes because a response body given as a
 * string is encoded on every call: for hot's rows (Chinese names, a two-byte string) that encoding
 * was the largest part of the call once the rows were serialised only once. The bytes are exactly
 * those of `c.json(envelope(…))`.
 */
import type { Context } from 'hono'
import { cacheKind } from '../runtime/isolate-caches'
import { answerBody } from './answer'
import type { AppEnv, Outcome } from './context'
import { envelopeHead, envelopeTail, type EnvelopeBody } from './envelope'
import { asciiHeadBefore } from './json-splice'

/** The tails of shared answers, by answer (held weakly: an answer replaced in the shared cache takes its texts with it) and variant. */
class SharedEnvelopeTexts {
  private tails = new WeakMap<object, Map<string, Uint8Array>>()

  /** The UTF-8 envelope text of `answer` after `elapsed_ms` (src/http/envelope.ts `envelopeTail`), made by `body` the first time this variant is asked for. */
  tail(answer: object, variant: string, body: () => EnvelopeBody): Uint8Array {
    let texts = this.tails.get(answer)
    if (!texts) this.tails.set(answer, (texts = new Map()))
    let bytes = texts.get(variant)
    if (bytes === undefined) texts.set(variant, (bytes = utf8.encode(envelopeTail(body()))))
    return bytes
  }

  clear(): void {
    this.tails = new WeakMap()
  }
}

/** The envelope texts of this isolate's shared answers, in `services.caches`. */
export const SHARED_ENVELOPES = cacheKind('envelope texts of shared answers', () => new SharedEnvelopeTexts(), (t) => t.clear())

/**
 * The JSON answer `c.json(envelope(c, endpoint, body()), 200)` would give for a shared `answer`,
 * with the text after `elapsed_ms` made once per answer and `variant` (which names what `body`
 * picks from the answer, e.g. a limit), carrying the call's `outcome` (src/http/answer.ts).
 */
export function sharedEnvelopeAnswer(c: Context<AppEnv>, endpoint: string, outcome: Outcome, answer: object, variant: string, body: () => EnvelopeBody): Response {
  const tail = c.get('services').caches.of(SHARED_ENVELOPES).tail(answer, variant, body)
  // The head is ASCII (its fields are numbers, booleans and our own names): one byte a character.
  return answerBody(c, asciiHeadBefore(envelopeHead(c, endpoint, outcome.ok), tail), outcome, JSON_CONTENT)
}

const utf8 = new TextEncoder()

/** The content type `c.json` sets. */
const JSON_CONTENT = { 'Content-Type': 'application/json' }
