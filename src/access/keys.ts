import { z } from 'zod'
import { TIERS } from './tiers'

/** What KV `KEYS` holds under `key:<sha256 hex of the key>`. The key itself is never stored. */
export const KeyRecordSchema = z.object({
  tier: z.enum(TIERS).exclude(['free']),
  label: z.string().default(''),
  /** ISO time of creation. */
  created: z.string(),
  status: z.enum(['active', 'revoked']),
  /** Buyout pack: lifetime usage units; absent = no cap. */
  pack_units: z.number().int().positive().optional(),
})
export type KeyRecord = z.infer<typeof KeyRecordSchema>

/**
 * How to get a key, in the words of the 401 `KEY_REQUIRED` (README, "First, a key"): the
 * operator's command, with the tier the call needs.
 */
export const howToGetAKey = (tier: string) => `create one with \`npm run key -- create --tier ${tier}\` (README, "First, a key"), or ask the service's operator`

/** KV key under which a key's record lives. */
export const kvKeyOf = (hash: string) => `key:${hash}`

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'

/** A new API key: `mk_` and 32 random base-62 characters (about 190 bits). */
export function generateKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32))
  // 256 is not a multiple of 62; the bias (< 2^-2 per char toward the first 8 letters) costs
  // under 0.2 bits of the 190 and keeps this branch-free.
  return 'mk_' + Array.from(bytes, (b) => ALPHABET[b % 62]).join('')
}

/** SHA-256 of the key, lower-case hex: what KV stores and what names the KeyGuard object. */
export async function hashKey(key: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(key))
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('')
}
