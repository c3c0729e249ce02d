/**
 * JSON written straight into UTF-8 bytes, for answers made of many numeric rows (the live technical
 * batch writes 52,000 fresh numbers a call). `JSON.stringify` turns every double into its shortest
 * round-trip text with a general algorithm, and the text must then be encoded: for rounded values
 * that was most of the batch's cost. A value already rounded to `places` decimals is the integer
 * `n = value × 10^places` over `10^places`, so its digits can be written from `n` directly.
 *
 * The output is byte for byte what `JSON.stringify` gives (json-bytes.test.ts checks it on random
 * values of every magnitude): the fast path is taken only when `n / 10^places` is exactly the double
 * (so the decimal text reads back as it) and the value is below 1e11, where doubles are so dense
 * (spacing ≤ 2^−16) that no shorter decimal reads back as the same double; anything else (larger,
 * more places, not rounded) goes through `String(value)`, which is what `JSON.stringify` writes.
 */

const SCALE = [1, 10, 100, 1000, 10000]
/** Below this, a value rounded to at most 4 decimals prints as those decimals (see above). */
const FAST_LIMIT = 1e11

const utf8 = new TextEncoder()
const NULL = utf8.encode('null')

export class JsonBytes {
  private buf: Uint8Array
  private at = 0

  constructor(capacity = 64 * 1024) {
    this.buf = new Uint8Array(capacity)
  }

  /** Bytes written so far. */
  get length(): number {
    return this.at
  }

  private room(n: number): void {
    if (this.at + n <= this.buf.length) return
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.at + n))
    next.set(this.buf.subarray(0, this.at))
    this.buf = next
  }

  /** Bytes as they are (a key prefix encoded once, a stored row). */
  bytes(b: Uint8Array): this {
    this.room(b.length)
    this.buf.set(b, this.at)
    this.at += b.length
    return this
  }

  /** Text that is already JSON (`JSON.stringify`'s output, a literal); any Unicode. */
  json(text: string): this {
    this.room(text.length * 3)
    this.at += utf8.encodeInto(text, this.buf.subarray(this.at)).written
    return this
  }

  /** A string value, quoted and escaped as `JSON.stringify` does. */
  string(s: string | null): this {
    if (s === null) return this.null()
    // Codes, dates and times are short printable ASCII with nothing to escape: written as they are
    // (what JSON.stringify would give) without a string built and encoded for each.
    const n = s.length
    if (n <= 32) {
      this.room(n + 2)
      const buf = this.buf
      let at = this.at
      buf[at++] = 34 // '"'
      let k = 0
      for (; k < n; k++) {
        const ch = s.charCodeAt(k)
        if (ch < 32 || ch > 126 || ch === 34 || ch === 92) break
        buf[at++] = ch
      }
      if (k === n) {
        buf[at++] = 34
        this.at = at
        return this
      }
    }
    return this.json(JSON.stringify(s))
  }

  /**
   * A number as `JSON.stringify` writes it (`null` for NaN, ±Infinity and null); `places` is how
   * many decimals it was rounded to (0–4), which makes the common case a write of integer digits.
   */
  number(v: number | null, places: number): this {
    if (v === null || !Number.isFinite(v)) return this.null()
    const a = v < 0 ? -v : v
    const scale = SCALE[places]
    if (scale === undefined || a >= FAST_LIMIT) return this.json(String(v))
    const n = Math.round(a * scale)
    if (n / scale !== a) return this.json(String(v))
    return this.decimal(n, places, v < 0)
  }

  /** `null`. */
  null(): this {
    return this.bytes(NULL)
  }

  /**
   * The number `units / 10^places` (negated when `negative`), as `JSON.stringify` writes that double:
   * a rounded value written from its integer count of 10^−places, with no general formatting.
   * `units` is a non-negative integer; 0 is written `0` whatever the sign.
   */
  decimal(units: number, places: number, negative: boolean): this {
    if (units === 0) return this.byte(48) // '0'; −0 included, as JSON.stringify writes it
    const scale = SCALE[places]
    const a = scale === undefined ? Number.NaN : units / scale
    if (!(a < FAST_LIMIT)) return this.json(String(negative ? -(units / 10 ** places) : units / 10 ** places))
    const whole = Math.floor(a)
    let frac = units - whole * scale
    this.room(32)
    const buf = this.buf
    if (negative) buf[this.at++] = 45 // '-'
    this.digits(whole)
    if (frac !== 0) {
      let width = places
      while (frac % 10 === 0) {
        frac /= 10
        width--
      }
      buf[this.at++] = 46 // '.'
      const end = this.at + width
      for (let k = end - 1; k >= this.at; k--) {
        buf[k] = 48 + (frac % 10)
        frac = Math.floor(frac / 10)
      }
      this.at = end
    }
    return this
  }

  /** One byte (an ASCII character). */
  byte(b: number): this {
    this.room(1)
    this.buf[this.at++] = b
    return this
  }

  /** A non-negative integer below 1e11 in decimal digits (in 32-bit integer steps where it fits). */
  private digits(x: number): void {
    let count = 1
    for (let p = 10; p <= x; p *= 10) count++
    const end = this.at + count
    let k = end - 1
    for (; x > 0x7fffffff; k--) {
      this.buf[k] = 48 + (x % 10)
      x = Math.floor(x / 10)
    }
    let small = x | 0
    for (; k >= this.at; k--) {
      const q = (small / 10) | 0
      this.buf[k] = 48 + small - q * 10
      small = q
    }
    this.at = end
  }

  /**
   * The bytes written since `from`, without copying: a view of the current buffer, valid for good
   * (a buffer outgrown is left to the views that hold it, never written again).
   */
  view(from: number): Uint8Array {
    return this.buf.subarray(from, this.at)
  }


}

/** A JSON text fragment encoded once (keys and punctuation written many times). */
export const jsonFragment = (text: string): Uint8Array => utf8.encode(text)
