import { z, type OpenAPIHono } from '@hono/zod-openapi'
import { dataTable, schemaColumns } from '../http/csv-answer'
import { admittedRoute, registerAdmitted } from '../access/route'
import type { AccessPolicy } from '../access/tiers'
import { addDays, beijing } from '../domain/dates'
import type { AppEnv } from '../http/context'
import { answer } from '../http/answer'
import type { Services } from '../services/types'
import { staleOf } from '../services/reference'
import { fetchIpoWindow, IpoRowSchema, ipoRow } from './shared/ipo-rows'
import { IntParam } from './shared/schemas'
import { AS_OF, COMMON_ERRORS, envelopeSchema } from '../http/envelope-schema'

/** Who may call it and what it costs: pro group, trial and above. */
const POLICY: AccessPolicy = { group: 'keyed', minTier: 'trial', cost: 1, counted: true }

const Query = z.object({
  days: IntParam('days', 1, 90)
    .default(15)
    .openapi({ description: 'Window half-width in calendar days: events from `days` days ago to `days` days ahead (Beijing dates), 1..90', example: 15, type: 'integer', minimum: 1, maximum: 90 }),
})

const Response = envelopeSchema('IpoEnvelopeBase', z.array(IpoRowSchema).openapi({ description: 'IPOs with at least one event in the window, by subscription date' }), AS_OF.instant('when the answer was fetched from the upstream (answers are kept for the whole service for hours)'))
  .extend({ window: z.object({ start: z.string(), end: z.string() }).openapi({ description: 'The window, inclusive Beijing dates' }) })
  .openapi('IpoEnvelope', {
    example: {
      ok: true,
      endpoint: 'ipo',
      tier: 'trial',
      elapsed_ms: 5,
      source: 'eastmoney',
      as_of: '2026-10-20T10:30:00+08:00',
      window: { start: '2026-10-05', end: '2026-11-04' },
      data: [
        {
          code: 'sh688123', name: '华科智能', subscription_code: '787123', board: '科创板', issue_price: 23.5, issue_pe: 28.4,
          issue_shares: 30000000, online_issue_shares: 8250000, subscription_limit: 8000, subscription_date: '2026-10-16',
          allotment_date: '2026-10-20', payment_date: '2026-10-20', listing_date: '2026-10-28', winning_rate_pct: 0.0412,
          first_open: null, first_close: null,
          events: [{ event: 'subscription', date: '2026-10-16' }, { event: 'allotment', date: '2026-10-20' }, { event: 'payment', date: '2026-10-20' }, { event: 'listing', date: '2026-10-28' }],
        },
      ],
    },
  })

const route = admittedRoute(POLICY, {
  method: 'get',
  path: '/v1/ipo',
  operationId: 'ipo',
  tags: ['Pro'],
  summary: 'IPO calendar: subscription, allotment, payment and listing',
  description:
    'New Shanghai and Shenzhen shares with an event from `days` days ago to `days` days ahead (default 15): codes, issue price and P/E, ' +
    'sizes in shares, subscription cap, and the subscription (T), allotment and payment (T+2) and listing dates. Values not yet public ' +
    '(price before pricing, listing date before its notice, first-day prices before the first close) are null. A listed IPO\'s code is ' +
    'an ordinary stock from its listing day. From Eastmoney\'s RPTA_APP_IPOAPPLY; cached for the whole service for hours (`as_of`).',
  request: { query: Query },
  responses: {
    200: { description: 'IPOs (ok:false UPSTREAM_UNAVAILABLE when the upstream failed; not counted)', content: { 'application/json': { schema: Response } } },
    ...COMMON_ERRORS,
  },
}, { csv: dataTable(schemaColumns(IpoRowSchema)) })

/** GET /v1/ipo */
export function registerIpo(app: OpenAPIHono<AppEnv>, services: Services) {
  registerAdmitted(app, route, async (c) => {
    const { days } = c.req.valid('query')
    const today = beijing(services.now()).date
    const window = { start: addDays(today, -days), end: addDays(today, days) }
    const r = await fetchIpoWindow(c, services, window.start)
    if (!r.ok) return answer(c, 'ipo', { ...r, data: [] as ReturnType<typeof ipoRow>[], window })
    // Months without a single IPO do not happen: an upstream with no row at all has nothing to say.
    if (r.value.length === 0) {
      return answer(c, 'ipo', { ok: false, source: r.source, data: [] as ReturnType<typeof ipoRow>[], window, code: 'NO_DATA', error: 'the upstream lists no IPO in the last 90 days' })
    }
    const data = r.value.map((i) => ipoRow(i, window.start, window.end)).filter((row) => row.events.length > 0)
    const notice = data.length ? undefined : `no IPO event between ${window.start} and ${window.end}`
    return answer(c, 'ipo', { ok: true, source: r.source, data, as_of: r.as_of, window, ...staleOf([r], notice) })
  })
}
