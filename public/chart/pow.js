// @ts-check
/**
 * The proof-of-work solver the page runs in a Web Worker (pow-worker.js): the loop of
 * src/access/pow-solver.ts in plain JavaScript. Finds a nonce such that SHA-256 of
 * `<challenge>.<nonce>` starts with `difficulty` zero bits; that string is the `X-PoW` header.
 */

/** Hashes in flight at once: WebCrypto digests are async, and one at a time is several times slower. */
const BATCH = 256

/**
 * Leading zero bits of a hash.
 * @param {Uint8Array} bytes
 */
export function leadingZeroBits(bytes) {
  let n = 0
  for (const b of bytes) {
    if (b !== 0) return n + Math.clz32(b) - 24
    n += 8
  }
  return n
}

/**
 * About 2^difficulty hashes on average (difficulty 16: some 65,000, under a second).
 * @param {string} challenge
 * @param {number} difficulty
 * @returns {Promise<{ header: string, hashes: number }>}
 */
export async function solvePow(challenge, difficulty) {
  const enc = new TextEncoder()
  for (let base = 0; ; base += BATCH) {
    const tries = Array.from({ length: BATCH }, (_, i) => `${challenge}.${base + i}`)
    const hashes = await Promise.all(tries.map((t) => crypto.subtle.digest('SHA-256', enc.encode(t))))
    const i = hashes.findIndex((h) => leadingZeroBits(new Uint8Array(h)) >= difficulty)
    if (i >= 0) return { header: tries[i], hashes: base + i + 1 }
  }
}
