/**
 * JSON text written straight into bytes, for the few answers large enough that building strings
 * and encoding them cost more than their data (a whole stock history: some 6,000 rows). Writes
 * ASCII only; numbers come out as `String(n)` and `(m / 100).toFixed(2)` write them.
 */
/** Cents below which m / 100 rounds back to m hundredths at two decimals (its double's spacing is under 0.002). */
const CENTS_EXACT = 2 ** 50

export class AsciiWriter {
  private buf: Uint8Array<ArrayBuffer>
  private at = 0

  /** `expected` bytes are allocated at once; the buffer doubles when a write would pass its end. */
  constructor(expected = 1024) {
    this.buf = new Uint8Array(Math.max(16, expected))
  }

  /** Bytes written so far (a view of the buffer, not a copy). */
  get bytes(): Uint8Array<ArrayBuffer> {
    return this.buf.subarray(0, this.at)
  }

  /** Writes `s`, which must be ASCII (our own keys and punctuation). */
  ascii(s: string): this {
    this.room(s.length)
    for (let i = 0; i < s.length; i++) this.buf[this.at++] = s.charCodeAt(i)
    return this
  }

  /** Writes an integer as `String(n)` does (past 2^53, and for a fraction, through `String`). */
  int(n: number): this {
    if (!Number.isSafeInteger(n)) return this.ascii(String(n))
    if (n < 0) {
      this.room(1)
      this.buf[this.at++] = 45 // '-'
      n = -n
    }
    return this.digits(n, 1)
  }

  /**
   * Writes integer cents `m` as `(m / 100).toFixed(2)` does. Below 2^50 (ten trillion yuan) `m / 100`
   * is within a fifth of a cent of m hundredths and rounds back to them; past it, through `toFixed`.
   */
  cents(m: number): this {
    if (!Number.isInteger(m) || Math.abs(m) >= CENTS_EXACT) return this.ascii((m / 100).toFixed(2))
    if (m < 0) {
      this.room(1)
      this.buf[this.at++] = 45
      m = -m
    }
    const whole = Math.floor(m / 100)
    const frac = m - whole * 100
    this.digits(whole, 1)
    this.room(3)
    this.buf[this.at++] = 46 // '.'
    const tens = (frac / 10) | 0
    this.buf[this.at++] = 48 + tens
    this.buf[this.at++] = 48 + frac - tens * 10
    return this
  }

  /** Writes a non-negative integer with at least `width` digits (zero-padded). */
  digits(n: number, width: number): this {
    // Below 10^9 the arithmetic stays in 32-bit integers; a larger number is written as its high part and nine low digits.
    if (n >= 1e9) {
      const high = Math.floor(n / 1e9)
      return this.digits(high, width - 9).digits(n - high * 1e9, 9)
    }
    let len = 1
    for (let p = 10; p <= n; p *= 10) len++
    if (len < width) len = width
    this.room(len)
    let x = n | 0
    for (let i = this.at + len - 1; i >= this.at; i--) {
      const q = (x / 10) | 0
      this.buf[i] = 48 + x - q * 10
      x = q
    }
    this.at += len
    return this
  }

  private room(n: number): void {
    if (this.at + n <= this.buf.length) return
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.at + n))
    next.set(this.buf.subarray(0, this.at))
    this.buf = next
  }
}
