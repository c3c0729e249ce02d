/**
 * An IPO as /v1/ipo and /v1/calendar show it: the row's schema, its events inside a window, and the
 * window's IPOs through the shared reference cache.
 */
import { z } from '@hono/zod-openapi'
import { addDays, beijing, dayNumber } from '../../domain/dates'
import type { Services } from '../../services/types'
import { ipos, type Ipo } from '../../services/calendar-events'
import type { ReferenceRequest } from '../../services/types'

const IPO_EVENTS = ['subscription', 'allotment', 'payment', 'listing'] as const
export type IpoEvent = (typeof IPO_EVENTS)[number]

/** Subscription precedes listing by at most this many calendar days (about ten sessions, with a holiday). */
const LEAD_DAYS = 25

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

/** The events of an IPO inside [start, end], by date. */
function eventsIn(ipo: Ipo, start: string, end: string): Array<{ event: IpoEvent; date: string }> {
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
export function fetchIpoWindow(c: ReferenceRequest, services: Services, start: string) {
  const today = beijing(services.now()).date
  const earliest = addDays(today, -90)
  const from = addDays(start < earliest ? start : earliest, -LEAD_DAYS)
  return services.reference.fetch<Ipo[]>(c, `ipo?from=${from}&today=${today}`, ['eastmoney'], ipos(from), {
    cls: 'ipo',
    // Windows move with the day: the last good copy is the newest window asked from as far back.
    key: `ipo?back=${dayNumber(today) - dayNumber(from)}`,
  })
}
