/**
 * The reference proof-of-work solver: plain WebCrypto, so the same code runs in a browser, in Node
 * (20+) and in a worker. docs/access.md shows the same loop with `leadingZeroBits` inlined.
 */
import { leadingZeroBits } from './pow'

/** Hashes in flight at once: WebCrypto digests are async, and one at a time is ~3x slower in Node. */
const BATCH = 256

/**
 * Finds a nonce such that SHA-256(`<challenge>.<nonce>`) has at least `difficulty` leading zero
 * bits, and returns that string: the `X-PoW` header value. About 2^difficulty hashes on average.
 */
export async function solveChallenge(challenge: string, difficulty: number): Promise<string> {
  const enc = new TextEncoder()
  for (let base = 0; ; base += BATCH) {
    const tries = Array.from({ length: BATCH }, (_, i) => `${challenge}.${base + i}`)
    const hashes = await Promise.all(tries.map((t) => crypto.subtle.digest('SHA-256', enc.encode(t))))
    const i = hashes.findIndex((h) => leadingZeroBits(new Uint8Array(h)) >= difficulty)
    if (i >= 0) return tries[i]
  }
}
