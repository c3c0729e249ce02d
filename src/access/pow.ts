/**
 * Anonymous proof-of-work (docs/access.md, "Raising the anonymous limit with proof-of-work"). Stateless: a challenge
 * is an HMAC-signed string carrying its own expiry, difficulty and a tag of the caller's IP, so
 * any isolate can check a proof without storage. A proof is `X-PoW: <challenge>.<nonce>` where
 * SHA-256 of that whole string starts with at least `difficulty` zero bits.
 *
 * Challenge string: `p1~<expires, unix s>~<difficulty>~<ip tag>~<salt>~<mac>`, all base64url or
 * digits and `~`, never a `.`, so the header splits unambiguously at its last `.`. The IP tag is an
 * HMAC of the IP under the server secret: it binds the challenge without revealing the address.
 *
 * A proof is not spent on use: within its lifetime it may be sent with every call from the same
 * IP (that is what raises the allowance). Replay from elsewhere fails the IP check.
 */
import { canonicalIp } from './ip'
import { ANONYMOUS } from './tiers'
import { isoInstant } from '../domain/instant'

export interface PowParams {
  /** Difficulty served for `difficulty=0` and with a 429. */
  defaultDifficulty: number
  /** Proofs of easier challenges earn nothing. The reward does not grow with difficulty, so this is the real price. */
  minAcceptedDifficulty: number
  maxDifficulty: number
  /** Lifetime of a challenge, and so of the raised allowance it buys. */
  ttlSeconds: number
}

/**
 * Default = minimum = 16 bits: about 65,000 SHA-256 on average, under a second in Node or a browser
 * with the batched solver. A lower minimum would make every rational client pick it, since the
 * allowance bought is the same. 600 s: one solve buys ten minutes of the raised allowance.
 */
export const POW: Readonly<PowParams> = {
  defaultDifficulty: 16,
  minAcceptedDifficulty: 16,
  maxDifficulty: 24,
  ttlSeconds: 600,
}

/** Under the emulator only (see `powSecret`). */
export const DEV_POW_SECRET = 'emulator-only proof-of-work secret; never used in production'

/** Body of GET /v1/challenge (and of an anonymous 429). */
export interface ChallengeBody {
  challenge: string
  difficulty: number
  min_difficulty: number
  raises_allowance: boolean
  raises_to_per_minute: number
  expires_at: string
  expires_in: number
  algorithm: 'sha256'
  header: 'X-PoW'
  format: '<challenge>.<nonce>'
}

type ProofFailure = 'malformed' | 'forged' | 'expired' | 'wrong-ip' | 'too-easy' | 'unsolved'
export type ProofResult = { ok: true; difficulty: number; expiresAtMs: number } | { ok: false; reason: ProofFailure }

/** Test hook: tests issue and accept easy challenges so they solve fast. */
export interface PowOptions {
  minAcceptedDifficulty?: number
}

const VERSION = 'p1'
const MAX_HEADER = 512
// The MAC's last character may only carry its 4 meaningful bits, so each MAC has one spelling.
const CHALLENGE_RE = /^p1~(\d{1,12})~(\d{1,2})~([\w-]{16})~([\w-]{16})~([\w-]{42}[AEIMQUYcgkosw048])$/
// Printable ASCII without space; '.' cannot occur because the split is at the last one.
const NONCE_RE = /^[\x21-\x7e]{1,64}$/
const enc = new TextEncoder()

/**
 * The PoW secret: `POW_SECRET` when set; under the emulator a fixed development secret; otherwise
 * null, meaning proof-of-work is off in this deployment (GET /v1/challenge answers 503).
 */
export function powSecret(env: { POW_SECRET?: string }, simulated: boolean): string | null {
  if (env.POW_SECRET) return env.POW_SECRET
  return simulated ? DEV_POW_SECRET : null
}

/**
 * Signs a new challenge for `ip`. `difficulty` 0 means the default; other values are clamped to
 * 1..maxDifficulty (the route validates the range first). A difficulty below the accepted minimum
 * is issued as asked, with `raises_allowance: false`, so clients can test a solver cheaply.
 */
export async function issueChallenge(secret: string, ip: string, difficulty: number, nowMs: number, opts: PowOptions = {}): Promise<ChallengeBody> {
  if (!secret) throw new Error('issueChallenge: empty secret')
  const bits = difficulty === 0 || !Number.isFinite(difficulty) ? POW.defaultDifficulty : Math.min(POW.maxDifficulty, Math.max(1, Math.trunc(difficulty)))
  const minimum = opts.minAcceptedDifficulty ?? POW.minAcceptedDifficulty
  // Rounded up so `expires_in` is the whole TTL.
  const expiresS = Math.ceil(nowMs / 1000) + POW.ttlSeconds
  const key = await hmacKey(secret)
  const payload = [VERSION, expiresS, bits, await ipTag(key, ip), b64url(crypto.getRandomValues(new Uint8Array(12)))].join('~')
  const mac = b64url(new Uint8Array(await crypto.subtle.sign('HMAC', key, enc.encode(payload))))
  return {
    challenge: `${payload}~${mac}`,
    difficulty: bits,
    min_difficulty: minimum,
    raises_allowance: bits >= minimum,
    raises_to_per_minute: ANONYMOUS.perMinuteWithPow,
    expires_at: isoInstant(expiresS * 1000),
    expires_in: Math.floor((expiresS * 1000 - nowMs) / 1000),
    algorithm: 'sha256',
    header: 'X-PoW',
    format: '<challenge>.<nonce>',
  }
}

/**
 * Checks an `X-PoW` header for the caller at `ip`. Order: shape, signature (constant-time), expiry,
 * IP, minimum difficulty, then the work itself. Never throws; anything odd is `malformed`.
 */
export async function verifyProof(secret: string, header: string | null | undefined, ip: string, nowMs: number, opts: PowOptions = {}): Promise<ProofResult> {
  const minimum = opts.minAcceptedDifficulty ?? POW.minAcceptedDifficulty
  const memoKey = `${secret}\n${ip}\n${header}`
  const known = accepted.get(memoKey)
  if (known) {
    if (nowMs < known.expiresAtMs && known.difficulty >= minimum) return known
    if (nowMs >= known.expiresAtMs) return fail('expired')
  }
  try {
    const r = await check(secret, header, ip, nowMs, minimum)
    if (r.ok) {
      if (accepted.size >= ACCEPTED_MAX) accepted.clear()
      accepted.set(memoKey, r)
    }
    return r
  } catch {
    return fail('malformed')
  }
}

/**
 * Proofs already checked and accepted, by secret, IP and header: a caller sends the same proof
 * with every call for ten minutes, and checking it costs four HMAC/SHA-256 operations. Only
 * accepted proofs are kept (a flood of bad ones cannot fill it) and their expiry still applies.
 */
const accepted = new Map<string, { ok: true; difficulty: number; expiresAtMs: number }>()
const ACCEPTED_MAX = 10_000

async function check(secret: string, header: string | null | undefined, ip: string, nowMs: number, minimum: number): Promise<ProofResult> {
  if (typeof header !== 'string' || header.length > MAX_HEADER || !secret) return fail('malformed')
  const dot = header.lastIndexOf('.')
  const challenge = header.slice(0, dot)
  const m = dot > 0 ? CHALLENGE_RE.exec(challenge) : null
  if (!m || !NONCE_RE.test(header.slice(dot + 1))) return fail('malformed')
  const [, expiresS, bitsS, tag, , mac] = m

  const key = await hmacKey(secret)
  const payload = challenge.slice(0, challenge.lastIndexOf('~'))
  if (!(await crypto.subtle.verify('HMAC', key, fromB64url(mac), enc.encode(payload)))) return fail('forged')
  const expiresAtMs = Number(expiresS) * 1000
  if (nowMs >= expiresAtMs) return fail('expired')
  if (tag !== (await ipTag(key, ip))) return fail('wrong-ip')
  const difficulty = Number(bitsS)
  if (difficulty < minimum) return fail('too-easy')
  const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', enc.encode(header)))
  if (leadingZeroBits(hash) < difficulty) return fail('unsolved')
  return { ok: true, difficulty, expiresAtMs }
}

/** Number of leading zero bits in `bytes` (the whole length when all are zero). */
export function leadingZeroBits(bytes: Uint8Array): number {
  let n = 0
  for (const b of bytes) {
    if (b !== 0) return n + Math.clz32(b) - 24
    n += 8
  }
  return n
}

const fail = (reason: ProofFailure): ProofResult => ({ ok: false, reason })

// One secret per deployment: keep its imported key rather than importing per request.
let cachedKey: { secret: string; key: CryptoKey } | undefined
async function hmacKey(secret: string): Promise<CryptoKey> {
  if (cachedKey?.secret === secret) return cachedKey.key
  const key = await crypto.subtle.importKey('raw', enc.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify'])
  cachedKey = { secret, key }
  return key
}

/**
 * 96 bits of HMAC(secret, ip): equal for one IP however it is spelled (canonical form, so
 * `2001:DB8::1` and `2001:db8:0:0:0:0:0:1` match), unreadable without the secret.
 */
async function ipTag(key: CryptoKey, ip: string): Promise<string> {
  const mac = await crypto.subtle.sign('HMAC', key, enc.encode(`ip\n${canonicalIp(ip) ?? ip.trim().toLowerCase()}`))
  return b64url(new Uint8Array(mac, 0, 12))
}

function b64url(bytes: Uint8Array): string {
  let s = ''
  for (const b of bytes) s += String.fromCharCode(b)
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

function fromB64url(s: string): Uint8Array {
  const bin = atob(s.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (s.length % 4)) % 4))
  return Uint8Array.from(bin, (c) => c.charCodeAt(0))
}
