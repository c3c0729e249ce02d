import { z, type OpenAPIHono } from '@hono/zod-openapi'
import { guardedRoute } from '../access/route'
import type { AccessPolicy } from '../access/tiers'
import { fetchIpos, type Ipo } from '../channels/eastmoney/ipo'
import { addDays, beijing, dayNumber } from '../domain/dates'
import type { AppEnv } from '../http/context'
import { envelope } from '../http/envelope'
import type { Services } from '../services'
import { fetchReference, staleOf } from './reference-fetch'
import { IntParam } from './schemas'
import { COMMON_ERRORS, envelopeSchema } from '../http/envelope-schema'

/** Who may call it and what it costs: pro group, trial and above (DESIGN §12). */
export const POLICY: AccessPolicy = { group: 'pro', minTier: 'trial', cost: 1, counted: true }

export const IPO_EVENTS = ['subscription', 'allotment', 'payment', 'listing'] as const
export type IpoEvent = (typeof IPO_EVENTS)[number]

/** Subscription precedes listing by at most this many calendar days (about ten sessions, with a holiday). */
const LEAD_DAYS = 25

const Query = z.object({
  days: IntParam('days', 1, 90)
    .default(15)
    .openapi({ description: 'Window half-width in calendar days: events from `days` days ago to `days` days ahead (Beijing dates), 1..90', example: 15, type: 'integer', minimum: 1, maximum: 90 }),
})

const Nullable = (d: string) => z.number().nullable().openapi({ description: d })
const DateOrNull = (d: string) => z.string().nullable().openapi({ description: `${d}, YYYY-MM-DD; null until announced` })

export const IpoRowSchema = z
  .object({
    code: z.string().openapi({ description: 'The new stock with our prefix (becomes a listed stock on `listing_date`)' }),
    name: z.string().openapi({ description: 'Short name' }),
    subscription_code: z.string().nullable().openapi({ description: 'Code investors subscribe with (Shanghai: 732xxx main board, 787xxx STAR; Shenzhen: the stock code)' }),
    board: z.string().nullable().openapi({ description: 'Board as the exchange names it: 沪市主板, 科创板, 深市主板, 创业板' }),
    issue_price: Nullable('Issue price, CNY per share; null until priced (the trading day before subscription)'),
    issue_pe: Nullable('Issue price over earnings per share (diluted); null until priced'),
    issue_shares: Nullable('Shares issued in total'),
    online_issue_shares: Nullable('Shares offered to the public online'),
    subscription_limit: Nullable('Most shares one account may subscribe online'),
    subscription_date: z.string().openapi({ description: 'Online subscription day (T), YYYY-MM-DD' }),
    allotment_date: DateOrNull('Winning numbers published (T+2)'),
    payment_date: DateOrNull('Payment for allotted shares due (T+2)'),
    listing_date: DateOrNull('First trading day'),
    winning_rate_pct: Nullable('Online winning rate, percent; null until the ballot'),
    first_open: Nullable('First day open, CNY; null before the first close'),
    first_close: Nullable('First day close, CNY; null before the first close'),
    events: z
      .array(z.object({ event: z.enum(IPO_EVENTS), date: z.string() }))
      .openapi({ description: 'This IPO\'s events inside the window, by date: `subscription`, `allotment` (winning numbers), `payment`, `listing`' }),
  })
  .openapi('IpoRow')

const Response = envelopeSchema('IpoEnvelopeBase', z.array(IpoRowSchema).openapi({ description: 'IPOs with at least one event in the window, by subscription date' }))
  .extend({ window: z.object({ start: z.string(), end: z.string() }).openapi({ description: 'The window, inclusive Beijing dates' }) })
  .openapi('IpoEnvelope', {
    example: {
      ok: true,
      endpoint: 'ipo',
      tier: 'trial',
      elapsed_ms: 5,
      source: 'eastmoney',
      as_of: '2026-10-20 10:30:00',
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

const route = guardedRoute(POLICY, {
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
})

/** The events of an IPO inside [start, end], by date. */
export function eventsIn(ipo: Ipo, start: string, end: string): Array<{ event: IpoEvent; date: string }> {
  const all: Array<[IpoEvent, string | null]> = [['subscription', ipo.subscriptionDate], ['allotment', ipo.allotmentDate], ['payment', ipo.paymentDate], ['listing', ipo.listingDate]]
  return all.flatMap(([event, date]) => (date && date >= start && date <= end ? [{ event, date }] : [])).sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0))
}

export const ipoRow = (ipo: Ipo, start: string, end: string) => ({
  code: ipo.code,
  name: ipo.name,
  subscription_code: ipo.subscriptionCode,
  board: ipo.board,
  issue_price: ipo.issuePrice,
  issue_pe: ipo.issuePe,
  issue_shares: ipo.issueShares,
  online_issue_shares: ipo.onlineShares,
  subscription_limit: ipo.subscriptionLimit,
  subscription_date: ipo.subscriptionDate,
  allotment_date: ipo.allotmentDate,
  payment_date: ipo.paymentDate,
  listing_date: ipo.listingDate,
  winning_rate_pct: ipo.winningRate,
  first_open: ipo.firstOpen,
  first_close: ipo.firstClose,
  events: eventsIn(ipo, start, end),
})

/**
 * IPOs with events from `start` on, as the upstream knows them today, through the shared cache.
 * Every window of /v1/ipo starts within the last 90 days, so they all share one request.
 */
export function fetchIpoWindow(c: Parameters<typeof fetchReference>[0], services: Services, start: string) {
  const today = beijing(services.now()).date
  const earliest = addDays(today, -90)
  const from = addDays(start < earliest ? start : earliest, -LEAD_DAYS)
  return fetchReference<Ipo[]>(c, services, `ipo?from=${from}&today=${today}`, ['eastmoney'], () => fetchIpos(services.channelContext, from), {
    cls: 'ipo',
    // Windows move with the day: the last good copy is the newest window asked from as far back.
    key: `ipo?back=${dayNumber(today) - dayNumber(from)}`,
  })
}

/** GET /v1/ipo */
export function registerIpo(app: OpenAPIHono<AppEnv>, services: Services) {
  app.openapi(route, async (c) => {
    const { days } = c.req.valid('query')
    const today = beijing(services.now()).date
    const window = { start: addDays(today, -days), end: addDays(today, days) }
    const r = await fetchIpoWindow(c, services, window.start)
    if (!r.ok) return c.json(envelope(c, 'ipo', { ...r, data: [] as ReturnType<typeof ipoRow>[], window }), 200)
    // Months without a single IPO do not happen: an upstream with no row at all has nothing to say.
    if (r.value.length === 0) {
      return c.json(envelope(c, 'ipo', { ok: false, source: r.source, data: [] as ReturnType<typeof ipoRow>[], window, code: 'NO_DATA', error: 'the upstream lists no IPO in the last 90 days' }), 200)
    }
    const data = r.value.map((i) => ipoRow(i, window.start, window.end)).filter((row) => row.events.length > 0)
    const notice = data.length ? undefined : `no IPO event between ${window.start} and ${window.end}`
    return c.json(envelope(c, 'ipo', { ok: true, source: r.source, data, as_of: r.as_of, window, ...staleOf([r], notice) }), 200)
  })
}
