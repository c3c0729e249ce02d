/**
 * The one place an answer's JSON is put together from parts rather than by one `JSON.stringify`:
 * a kept envelope with this call's `elapsed_ms`, the bytes a route wrote itself (technical-batch's
 * items, a stored history's rows) between an envelope's head and tail. The parts are always made
 * from values by `JSON.stringify`, never found by searching JSON text, so what is put together is
 * byte for byte `JSON.stringify` of the whole (json-splice.test.ts proves it, odd strings included).
 *
 * The rule: for plain objects `before` and `after` (JSON values, no `toJSON`, no integer-like keys,
 * which an object would move first) whose keys differ from each other and from `key`,
 *
 *     headThrough(before, key) + JSON.stringify(v) + tailAfter(after)
 *       === JSON.stringify({ ...before, [key]: v, ...after })
 */

/** The text of an object holding `before`'s members and then `key`, up to and including `"key":`. */
export function headThrough(before: object, key: string): string {
  const open = JSON.stringify(before)
  return `${open.length > 2 ? `${open.slice(0, -1)},` : '{'}${JSON.stringify(key)}:`
}

/** The text after a member's value to the end of its object: `after`'s members and the closing brace. */
export function tailAfter(after: object): string {
  const close = JSON.stringify(after)
  return close.length > 2 ? `,${close.slice(1)}` : '}'
}

/** A head and a tail to put a value between. */
export interface JsonSlot {
  head: string
  tail: string
}

/**
 * `value`'s text cut around its member `key`: the head through `"key":`, the tail after its value.
 * Members whose value `JSON.stringify` leaves out (undefined, functions) are left out as it does.
 */
export function slotOf(value: Record<string, unknown>, key: string): JsonSlot {
  const before: Record<string, unknown> = {}
  const after: Record<string, unknown> = {}
  let seen = false
  for (const k of Object.keys(value)) {
    if (k === key) seen = true
    else if (seen) after[k] = value[k]
    else before[k] = value[k]
  }
  if (!seen) throw new Error(`json-splice: no member ${JSON.stringify(key)} to cut around`)
  return { head: headThrough(before, key), tail: tailAfter(after) }
}

/** A tail (what {@link tailAfter} gives: `}` or `,…}`) with `fields`' members added before its closing brace. */
export function tailWith(tail: string, fields: object): string {
  const more = JSON.stringify(fields)
  if (more.length <= 2) return tail
  return tail === '}' ? tailAfter(fields) : `${tail.slice(0, -1)},${more.slice(1)}`
}

/**
 * `text`, which is `JSON.stringify(value)`, cut around the value of its member `key`: the head
 * through `"key":` made from the members before it (checked to be how `text` begins, so the tail is
 * `text`'s own bytes after the value), or, should `text` be written otherwise, both made from
 * `value` ({@link slotOf}).
 */
export function slotIn(text: string, value: Record<string, unknown>, key: string): JsonSlot {
  const before: Record<string, unknown> = {}
  for (const k of Object.keys(value)) {
    if (k === key) {
      const head = headThrough(before, key)
      const held = JSON.stringify(value[key])
      const end = head.length + (held?.length ?? 0)
      if (held !== undefined && (text[end] === ',' || text[end] === '}') && text.startsWith(held, head.length) && text.startsWith(head)) return { head, tail: text.slice(end) }
      break
    }
    before[k] = value[k]
  }
  return slotOf(value, key)
}

const utf8 = new TextEncoder()

/**
 * One UTF-8 buffer: `head`, the `parts` (already JSON: a value's bytes, or an array's elements
 * when `separator` is given, e.g. 44 for a comma), then `tail`. A body given as one buffer is not
 * encoded again on every call, and large parts are copied once each.
 */
export function spliceBytes(head: string | Uint8Array, parts: readonly Uint8Array[], tail: string | Uint8Array, separator?: number): Uint8Array<ArrayBuffer> {
  const h = typeof head === 'string' ? utf8.encode(head) : head
  const t = typeof tail === 'string' ? utf8.encode(tail) : tail
  const seps = separator === undefined ? 0 : Math.max(0, parts.length - 1)
  let size = h.length + t.length + seps
  for (const p of parts) size += p.length
  const out = new Uint8Array(size)
  out.set(h, 0)
  let at = h.length
  parts.forEach((p, k) => {
    if (k > 0 && separator !== undefined) out[at++] = separator
    out.set(p, at)
    at += p.length
  })
  out.set(t, at)
  return out
}

/**
 * `bytes`, an object's UTF-8 JSON whose first member is `key` with the value `was`, with the value
 * `now` there instead: the rest is kept as it is. The head `was` makes is checked to be how `bytes`
 * begin (an item kept for one spelling of a code, answered for another).
 */
export function withFirstMember(bytes: Uint8Array, key: string, was: unknown, now: unknown): Uint8Array<ArrayBuffer> {
  const old = utf8.encode(`${headThrough({}, key)}${JSON.stringify(was)}`)
  const end = old.length
  if (bytes.length <= end || (bytes[end] !== 44 && bytes[end] !== 125) || old.some((b, i) => bytes[i] !== b)) {
    throw new Error(`json-splice: the bytes do not begin with the member ${JSON.stringify(key)} they were said to`)
  }
  return spliceBytes(`${headThrough({}, key)}${JSON.stringify(now)}`, [bytes.subarray(end)], '')
}

/**
 * A short `head` before bytes kept between calls, as one buffer: an ASCII head (numbers, booleans,
 * our own names: one byte a character) is encoded straight into it; any other goes the long way.
 */
export function asciiHeadBefore(head: string, tail: Uint8Array): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(head.length + tail.length)
  const { read, written } = utf8.encodeInto(head, bytes)
  if (read !== head.length || written !== head.length) return spliceBytes(head, [], tail)
  bytes.set(tail, head.length)
  return bytes
}
