import { z, type OpenAPIHono } from '@hono/zod-openapi'
import { issueChallenge, POW, powSecret } from '../access/pow'
import { admittedRoute, registerAdmitted } from '../access/route'
import { ANONYMOUS, type AccessPolicy } from '../access/tiers'
import type { AppEnv } from '../http/context'
import { answer } from '../http/answer'
import type { Services } from '../services/types'
import { IntParam } from './shared/schemas'
import { COMMON_ERRORS, envelopeSchema, ErrorSchema } from '../http/envelope-schema'

const EXAMPLE = {
  challenge: 'p1~1795143000~16~YT6BxnKYk-bX5B1x~-7LUgO_8ExJvgBJW~b7e7HtGALSRLOK6c2j8w-Ui4OpT3Sg2oijO8mWyjjDw',
  difficulty: 16,
  min_difficulty: POW.minAcceptedDifficulty,
  raises_allowance: true,
  raises_to_per_minute: ANONYMOUS.perMinuteWithPow,
  expires_at: '2026-11-20T10:50:00+08:00',
  expires_in: POW.ttlSeconds,
  algorithm: 'sha256' as const,
  header: 'X-PoW' as const,
  format: '<challenge>.<nonce>' as const,
}

/** The challenge body; the 429 for anonymous callers carries the same object. */
const ChallengeSchema = z
  .object({
    challenge: z.string().openapi({
      description: 'Opaque signed string (letters, digits, `-`, `_`, `~`; never a `.`). Bound to your IP and valid until `expires_at`.',
    }),
    difficulty: z.number().int().openapi({ description: 'Leading zero bits that SHA-256(`<challenge>.<nonce>`) must have; about 2^difficulty hashes to find a nonce' }),
    min_difficulty: z.number().int().openapi({ description: 'Proofs of challenges easier than this raise nothing' }),
    raises_allowance: z.boolean().openapi({ description: 'Whether a solution raises your allowance (false when `difficulty` < `min_difficulty`: useful only to test a solver)' }),
    raises_to_per_minute: z.number().int().openapi({ description: 'Anonymous calls per minute while a valid proof is sent (instead of 2 for scripts, 5 for browsers)' }),
    expires_at: z.string().openapi({ description: 'When the challenge, and the allowance a proof of it buys, expires (an instant, ISO 8601 with its offset)' }),
    expires_in: z.number().int().openapi({ description: 'Seconds until `expires_at`' }),
    algorithm: z.literal('sha256').openapi({ description: 'Hash function of the proof' }),
    header: z.literal('X-PoW').openapi({ description: 'Request header that carries the proof' }),
    format: z.literal('<challenge>.<nonce>').openapi({ description: 'Header value: the challenge, a dot, and any nonce of 1 to 64 printable ASCII characters without spaces or dots' }),
  })
  .openapi('Challenge', { example: EXAMPLE })

const ChallengeQuery = z.object({
  difficulty: IntParam('difficulty', 0, POW.maxDifficulty)
    .optional()
    .openapi({ description: `Leading zero bits, 0..${POW.maxDifficulty}; 0 or absent = server default (${POW.defaultDifficulty})`, example: 0, type: 'integer', minimum: 0, maximum: POW.maxDifficulty }),
})

const ChallengeResponse = envelopeSchema('ChallengeEnvelope', ChallengeSchema).openapi({
  example: { ok: true, endpoint: 'challenge', tier: 'free', elapsed_ms: 1, source: 'service', data: EXAMPLE },
})

/** Free and not counted: getting a challenge must not use up the allowance it is meant to raise. */
const POLICY: AccessPolicy = { group: 'open', minTier: 'free', cost: 0, counted: false }

const route = admittedRoute(POLICY, {
  method: 'get',
  path: '/v1/challenge',
  operationId: 'challenge',
  tags: ['Free'],
  summary: 'Proof-of-work challenge that raises the anonymous rate limit',
  description:
    `Anonymous callers may solve this to raise their allowance to ${ANONYMOUS.perMinuteWithPow} calls a minute until the challenge expires ` +
    `(${POW.ttlSeconds / 60} minutes). Find a nonce such that SHA-256 of the string \`<challenge>.<nonce>\` (UTF-8) starts with ` +
    '`difficulty` zero bits, then send that string in the `X-PoW` header with every call from the same IP. ' +
    'An anonymous 429 carries a fresh challenge too. A forged, expired, other-IP or too-easy proof raises nothing. ' +
    'Daily rows are not raised. Not counted. Key holders do not need it.',
  request: { query: ChallengeQuery },
  responses: {
    200: { description: 'A fresh challenge', content: { 'application/json': { schema: ChallengeResponse } } },
    503: {
      description: 'Proof-of-work is not configured on this deployment (no `POW_SECRET`)',
      content: { 'application/json': { schema: ErrorSchema, example: { error: 'proof-of-work is not enabled on this server; use an API key for a higher limit', code: 'POW_DISABLED' } } },
    },
    ...COMMON_ERRORS,
  },
})

/** GET /v1/challenge */
export function registerChallenge(app: OpenAPIHono<AppEnv>, services: Services) {
  registerAdmitted(app, route, async (c) => {
    const secret = powSecret(c.env, services.simulated)
    if (!secret) return c.json({ error: 'proof-of-work is not enabled on this server; use an API key for a higher limit', code: 'POW_DISABLED' }, 503)
    const data = await issueChallenge(secret, c.get('clientIp'), c.req.valid('query').difficulty ?? 0, services.now())
    // Bound to one IP and one moment: no cache may share it.
    c.header('Cache-Control', 'no-store')
    return answer(c, 'challenge', { ok: true, source: 'service', data })
  })
}
