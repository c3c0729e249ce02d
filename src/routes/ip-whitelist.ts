import { z, type OpenAPIHono } from '@hono/zod-openapi'
import { canonicalIp } from '../access/ip'
import { ALLOW_LIST_MAX, type KeyGuard } from '../access/key-guard'
import { KEY_LEASES } from '../access/key-lease'
import { admittedRoute, registerAdmitted } from '../access/route'
import type { AccessPolicy } from '../access/tiers'
import type { AppEnv } from '../http/context'
import { answer } from '../http/answer'
import { queryIssue, ValidationError, type ValidationIssue } from '../http/validation'
import type { Context } from 'hono'
import { COMMON_ERRORS, envelopeSchema, ErrorSchema } from '../http/envelope-schema'

/** Unlimited tier; calls are rate-limited like any other but cost no usage units. */
const POLICY: AccessPolicy = { group: 'keyed', minTier: 'unlimited', cost: 0, counted: true }

const AllowListSchema = z
  .object({
    ips: z.array(z.string()).openapi({ description: 'The allow-list, canonical form; empty = the key works from any IP' }),
    count: z.number().int(),
    max: z.number().int().openapi({ description: `At most ${ALLOW_LIST_MAX} addresses` }),
    caller_ip: z.string().openapi({ description: 'The address this call came from' }),
    caller_ip_kept: z.boolean().openapi({ description: 'POST: true when your current IP was not in `ips` and was added so you cannot lock yourself out' }),
  })
  .openapi('AllowList')

const responses = (description: string) => ({
  200: {
    description,
    content: {
      'application/json': {
        schema: envelopeSchema('AllowListEnvelope', AllowListSchema).openapi({
          example: {
            ok: true, endpoint: 'ip-whitelist', tier: 'unlimited', elapsed_ms: 4, source: 'service',
            data: { ips: ['203.0.113.7', '2001:db8::1'], count: 2, max: 50, caller_ip: '203.0.113.7', caller_ip_kept: true },
          },
        }),
      },
    },
  },
  401: { description: 'No key, or an unknown or revoked key', content: { 'application/json': { schema: ErrorSchema } } },
  403: { description: 'Key below tier unlimited, or a call from an IP not on the list', content: { 'application/json': { schema: ErrorSchema } } },
  ...COMMON_ERRORS,
})

const base = { path: '/v1/ip-whitelist', tags: ['Pro'] }

const getRoute = admittedRoute(POLICY, {
  ...base,
  method: 'get',
  operationId: 'getIpWhitelist',
  summary: 'Read the IP allow-list of this key',
  description: 'The addresses this key may be used from; empty means any.',
  responses: responses('The current list (unchanged)'),
})

const postRoute = admittedRoute(POLICY, {
  ...base,
  method: 'post',
  operationId: 'setIpWhitelist',
  summary: 'Replace the IP allow-list of this key',
  description:
    `Replaces (does not append to) the list with \`ips\`: comma-separated IPv4/IPv6 addresses, at most ${ALLOW_LIST_MAX}. ` +
    'Your current IP is always kept, so you cannot lock yourself out; `caller_ip_kept` says when it was added. Calls from other IPs then get 403.',
  request: {
    query: z.object({
      ips: z.string({ error: 'ips is required (comma-separated addresses); use DELETE to clear the list' }).openapi({ example: '203.0.113.7,2001:db8::1', description: 'Comma-separated IPv4/IPv6 addresses' }),
    }),
  },
  responses: responses('The new list'),
})

const deleteRoute = admittedRoute(POLICY, {
  ...base,
  method: 'delete',
  operationId: 'clearIpWhitelist',
  summary: 'Clear the IP allow-list of this key',
  description: 'Empties the list: the key works from any IP again.',
  responses: responses('The (now empty) list'),
})

const guardOf = (c: Context<AppEnv>) => c.env.KEY_GUARD.getByName(c.get('keyHash')!) as DurableObjectStub<KeyGuard>
const callerIp = (c: Context<AppEnv>) => canonicalIp(c.get('clientIp')) ?? c.get('clientIp')

function allowListAnswer(c: Context<AppEnv>, ips: string[], kept = false) {
  const data = { ips, count: ips.length, max: ALLOW_LIST_MAX, caller_ip: callerIp(c), caller_ip_kept: kept }
  return answer(c, 'ip-whitelist', { ok: true, source: 'service', data })
}

/** Parses `ips`: every entry a valid address (each bad one named), at most 50 with the caller's own. */
function parseAllowList(raw: string, caller: string): { ips: string[]; kept: boolean } {
  const issues: ValidationIssue[] = []
  const ips: string[] = []
  for (const part of raw.split(',').map((s) => s.trim()).filter(Boolean)) {
    const ip = canonicalIp(part)
    if (ip === null) issues.push(queryIssue('ips', `'${part}' is not an IPv4 or IPv6 address`, part))
    else if (!ips.includes(ip)) ips.push(ip)
  }
  if (ips.length === 0 && issues.length === 0) issues.push(queryIssue('ips', 'no address given; use DELETE /v1/ip-whitelist to clear the list', raw))
  const kept = !ips.includes(caller)
  if (kept) ips.push(caller)
  if (ips.length > ALLOW_LIST_MAX) {
    issues.push(
      queryIssue('ips', `at most ${ALLOW_LIST_MAX} addresses` + (kept ? ` including your current IP ${caller}, which is always kept` : '') + `; got ${ips.length}`, raw, 'too_long')
    )
  }
  if (issues.length) throw new ValidationError(issues)
  return { ips, kept }
}

/** GET, POST and DELETE /v1/ip-whitelist: read, replace and clear a key's allow-list. */
export function registerIpWhitelist(app: OpenAPIHono<AppEnv>) {
  registerAdmitted(app, getRoute, async (c) => allowListAnswer(c, await guardOf(c).allowList()))
  registerAdmitted(app, postRoute, async (c) => {
    const { ips, kept } = parseAllowList(c.req.valid('query').ips, callerIp(c))
    const list = await guardOf(c).replaceAllowList(ips)
    c.get('services').caches.of(KEY_LEASES).allowListChanged(c.get('keyHash')!, list)
    return allowListAnswer(c, list, kept)
  })
  registerAdmitted(app, deleteRoute, async (c) => {
    await guardOf(c).clearAllowList()
    c.get('services').caches.of(KEY_LEASES).allowListChanged(c.get('keyHash')!, [])
    return allowListAnswer(c, [])
  })
}
