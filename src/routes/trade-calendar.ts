import { z, type OpenAPIHono } from '@hono/zod-openapi'
import { admittedRoute, registerAdmitted } from '../access/route'
import type { AccessPolicy } from '../access/tiers'
import { CALENDAR_COLUMNS, type CalendarRow } from '../domain/calendar-flags'
import { calendarPage } from '../domain/calendar-page'
import { BOOLEAN_VALUES, CALENDAR_LIMITS, planCalendar, type CalendarPlan } from '../domain/calendar-query'
import type { CalendarTable } from '../domain/calendar-table'
import { beijing } from '../domain/dates'
import type { AppEnv } from '../http/context'
import { during } from '../runtime/request-scope'
import { answer } from '../http/answer'
import type { Envelope } from '../http/envelope'
import { markdownTable } from '../http/markdown-table'
import type { Services } from '../services/types'
import { DateParam, IntParam } from './shared/schemas'
import { COMMON_ERRORS, envelopeSchema } from '../http/envelope-schema'
import { FailureCodeSchema } from '../http/outcome'
import { planOr422 } from '../http/validation'
import { reformInstant } from '../domain/instant'

const { autoLimit, maxLimit, maxSpanDays, firstDate } = CALENDAR_LIMITS

const TradeCalendarQuery = z.object({
  date: DateParam('date').optional().openapi({ description: `One day, YYYY-MM-DD (from ${firstDate}). Not with start/end or year.`, example: '2025-09-30' }),
  start: DateParam('start').optional().openapi({ description: `Range start, YYYY-MM-DD (from ${firstDate}); paired with end; at most ${maxSpanDays} days.`, example: '2025-09-01' }),
  end: DateParam('end').optional().openapi({ description: 'Range end, YYYY-MM-DD, inclusive; paired with start.', example: '2025-10-31' }),
  year: z
    .string()
    .regex(/^\d{4}$/, { error: 'year must be a four-digit year, e.g. 2025' })
    .optional()
    .openapi({ description: `A whole year, four digits (from ${firstDate.slice(0, 4)}). Not with date or start/end.`, example: '2025' }),
  trading_only: z
    .enum(BOOLEAN_VALUES, { error: 'trading_only must be true or false (1 and 0 also accepted)' })
    .optional()
    .openapi({ description: 'Boolean: true = only trading days (about 242 rows a year); default false (every calendar day).', example: 'true' }),
  limit: IntParam('limit', 0, maxLimit)
    .optional()
    .openapi({ description: `Rows per page, 0..${maxLimit}. 0 (default) = automatic: up to ${autoLimit} rows; when more match, has_more and next_offset say so.`, example: 0, type: 'integer', minimum: 0, maximum: maxLimit }),
  offset: IntParam('offset', 0, maxLimit)
    .optional()
    .openapi({ description: `Skip the first N matching rows (paging; use next_offset). 0..${maxLimit}, default 0.`, example: 0, type: 'integer', minimum: 0, maximum: maxLimit }),
})

const CalendarRowSchema = z
  .object({
    date: z.string().openapi({ description: 'Calendar day, YYYY-MM-DD' }),
    is_trading_day: z.boolean().openapi({ description: 'The Shanghai and Shenzhen exchanges trade on this day' }),
    is_week_last: z.boolean().openapi({ description: 'Last trading day of its Monday–Sunday week (false on closed days)' }),
    is_quarter_last: z.boolean().openapi({ description: 'Last trading day of its calendar quarter (false on closed days)' }),
    is_year_last: z.boolean().openapi({ description: 'Last trading day of its year (false on closed days)' }),
    is_month_last: z.boolean().openapi({ description: 'Last trading day of its month (false on closed days)' }),
  })
  .openapi('TradeCalendarRow')

const EXAMPLE_ROWS: CalendarRow[] = [
  { date: '2025-09-29', is_trading_day: true, is_week_last: false, is_quarter_last: false, is_year_last: false, is_month_last: false },
  { date: '2025-09-30', is_trading_day: true, is_week_last: true, is_quarter_last: true, is_year_last: false, is_month_last: true },
  { date: '2025-10-01', is_trading_day: false, is_week_last: false, is_quarter_last: false, is_year_last: false, is_month_last: false },
]

const TradeCalendarResponse = envelopeSchema(
  'TradeCalendarEnvelopeBase',
  z.string().openapi({ description: 'The rows as a Markdown table (paste-ready), columns as in `structured`; empty string with ok:false' })
)
  .extend({
    structured: z.array(CalendarRowSchema).openapi({ description: 'The rows as objects, ascending by date; flags are JSON booleans' }),
    mode: z.enum(['date', 'range', 'year', 'month']).openapi({ description: 'Which form the query used; `month` = no parameters, the current month (Beijing)' }),
    range: z.object({ start: z.string(), end: z.string() }).openapi({ description: 'The span of dates asked for, inclusive' }),
    trading_only: z.boolean().openapi({ description: 'Whether only trading days were kept' }),
    total: z.number().int().openapi({ description: 'Rows matching the query before paging' }),
    returned: z.number().int().openapi({ description: 'Rows in this page' }),
    offset: z.number().int().openapi({ description: 'Rows skipped before this page' }),
    limit: z.number().int().openapi({ description: `Page size used (${autoLimit} when the query said 0)` }),
    has_more: z.boolean().openapi({ description: 'More matching rows follow this page' }),
    next_offset: z.number().int().optional().openapi({ description: 'With has_more: the offset of the next page' }),
    published_through: z.string().openapi({ description: 'Last day of the last year whose holiday notice the service knows' }),
    refreshed: z.string().optional().openapi({ description: 'When the calendar was last refreshed from the exchange, if it was: an instant (ISO 8601 with its offset, `2026-11-21T04:00:00+08:00`)' }),
    unpublished_years: z.array(z.number().int()).optional().openapi({ description: 'Years of the span whose calendar is not published yet; their rows are left out' }),
    code: FailureCodeSchema.optional().openapi({ description: 'With ok:false: NOT_PUBLISHED (no year of the span is published yet; not counted)' }),
  })
  .openapi('TradeCalendarEnvelope', {
    example: {
      ok: true,
      endpoint: 'trade-calendar',
      tier: 'free',
      elapsed_ms: 3,
      source: 'calendar',
      data: markdownTable(CALENDAR_COLUMNS, EXAMPLE_ROWS),
      structured: EXAMPLE_ROWS,
      mode: 'range',
      range: { start: '2025-09-29', end: '2025-10-01' },
      trading_only: false,
      total: 3,
      returned: 3,
      offset: 0,
      limit: autoLimit,
      has_more: false,
      published_through: '2026-12-31',
    },
  })

/** Who may call it and what it costs (free tier, but counted in usage and rate limits). */
const POLICY: AccessPolicy = { group: 'open', minTier: 'free', cost: 1, counted: true }

const route = admittedRoute(POLICY, {
  method: 'get',
  path: '/v1/trade-calendar',
  operationId: 'tradeCalendar',
  tags: ['Free'],
  summary: 'Trading calendar of the Shanghai and Shenzhen exchanges',
  description:
    `One of: \`date\`; \`start\`+\`end\`; \`year\`; or nothing for the current month (Beijing). Rows from ${firstDate}, ascending, ` +
    'columns `date, is_trading_day, is_week_last, is_quarter_last, is_year_last, is_month_last` (a "last" flag is true only on the last ' +
    'trading day of its Monday–Sunday week, month, quarter or year). `data` is a Markdown table, `structured` the same rows as objects. ' +
    `Pages hold up to ${autoLimit} rows unless \`limit\` says otherwise; \`total\`, \`has_more\` and \`next_offset\` tell when more rows exist. ` +
    'A year whose holiday notice is not published yet is never guessed: its rows are left out and named in `unpublished_years`, ' +
    'and a query entirely in such years answers ok:false with code NOT_PUBLISHED (not counted). Not the corporate-event /v1/calendar.',
  request: { query: TradeCalendarQuery },
  responses: {
    200: { description: 'Calendar rows (ok:false NOT_PUBLISHED when no asked-for year is published yet)', content: { 'application/json': { schema: TradeCalendarResponse } } },
    ...COMMON_ERRORS,
  },
}, {
  check: (c, q) => void planOr422(planCalendar(q, beijing(c.get('services').now()).date)),
  // `data` is the Markdown table; `structured` holds the same rows as objects.
  csv: { table: (body) => ({ rows: body.structured, columns: CALENDAR_COLUMNS }) },
})

/** `2027`, `2027–2029`, or `2027, 2029`. */
function yearsText(years: number[]): string {
  const contiguous = years.every((y, i) => i === 0 || y === years[i - 1] + 1)
  return years.length > 1 && contiguous ? `${years[0]}–${years.at(-1)}` : years.join(', ')
}

/** The envelope body of one query: rows, paging counters and what was left out. */
function calendarBody(plan: CalendarPlan, table: CalendarTable, sourcePrefix: string) {
  const page = calendarPage(plan, table)
  const publishedThrough = `${table.lastContiguousYear()}-12-31`
  const source = page.origins.has('szse') ? `${sourcePrefix}calendar:szse` : 'calendar'
  const meta = {
    mode: plan.mode,
    range: { start: plan.start, end: plan.end },
    trading_only: plan.tradingOnly,
    published_through: publishedThrough,
    ...(table.refreshed ? { refreshed: reformInstant(table.refreshed) } : {}),
    ...(page.unpublishedYears.length ? { unpublished_years: page.unpublishedYears } : {}),
  }
  const unpublished = yearsText(page.unpublishedYears)

  if (page.origins.size === 0) {
    return {
      ok: false,
      source,
      data: '',
      structured: [] as CalendarRow[],
      code: 'NOT_PUBLISHED' as const,
      error:
        `The trading calendar for ${unpublished} is not published yet: the exchanges announce each year's holidays late in the year before, ` +
        `and this service knows the calendar through ${publishedThrough}.`,
      ...meta,
      total: 0,
      returned: 0,
      offset: plan.offset,
      limit: plan.pageSize,
      has_more: false,
    }
  }

  const returned = page.rows.length
  const hasMore = plan.offset + returned < page.total
  const notices: string[] = []
  if (page.unpublishedYears.length) notices.push(`Rows of ${unpublished} are left out: that calendar is not published yet (known through ${publishedThrough}).`)
  if (hasMore) notices.push(`Showing rows ${plan.offset + 1}–${plan.offset + returned} of ${page.total}; ask again with offset=${plan.offset + returned} for more.`)
  if (returned === 0 && page.total > 0) notices.push(`offset ${plan.offset} is past the last of ${page.total} rows.`)
  return {
    ok: true,
    source,
    data: markdownTable(CALENDAR_COLUMNS, page.rows),
    structured: page.rows,
    ...meta,
    total: page.total,
    returned,
    offset: plan.offset,
    limit: plan.pageSize,
    has_more: hasMore,
    ...(hasMore ? { next_offset: plan.offset + returned } : {}),
    ...(notices.length ? { notice: notices.join(' ') } : {}),
  }
}

/** GET /v1/trade-calendar */
export function registerTradeCalendar(app: OpenAPIHono<AppEnv>, services: Services) {
  registerAdmitted(app, route, async (c) => {
    const plan = planOr422(planCalendar(c.req.valid('query'), beijing(services.now()).date))
    const body = calendarBody(plan, await during('store', services.store.calendar(c)), services.sourcePrefix)
    // `data` is text, so tell admission the row count ourselves (anonymous callers have a daily row cap).
    // answer() types its extras loosely; they are exactly `body`'s.
    return answer(c, 'trade-calendar', body, { rows: body.structured.length }) as unknown as ReturnType<typeof c.json<Envelope<string> & typeof body, 200>>
  })
}
