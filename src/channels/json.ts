import { describeAnswer, malformed } from './errors'

/** A JSON object, as opposed to an array or a primitive. */
export type JsonObject = Record<string, unknown>

export const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * An upstream's answer parsed as JSON; text that is not JSON is `malformed`, described by its size
 * and what came instead (an HTML error page, gzip bytes, JSON cut short), never quoted.
 */
export function parseJson(channel: string, text: string, what: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    throw malformed(channel, `${what} is not JSON (${describeAnswer(text)})`)
  }
}

/** As {@link parseJson}, and the answer must be an object. */
export function parseJsonObject(channel: string, text: string, what: string): JsonObject {
  const json = parseJson(channel, text, what)
  if (!isObject(json)) throw malformed(channel, `${what} is not a JSON object`)
  return json
}
