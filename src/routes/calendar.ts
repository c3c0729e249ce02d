import { z, type OpenAPIHono } from '@hono/zod-openapi'
import { sectionTable } from '../http/csv-answer'
import { admittedRoute, registerAdmitted } from '../access/route'
import type { AccessPolicy } from '../access/tiers'
import { addDays, beijing } from '../domain/dates'
import { seasonsOverlapping } from '../domain/report-seasons'
import type { AppEnv } from '../http/context'
import { answer } from '../http/answer'
import type { Services } from '../services/types'
import {
  disclosures,
  dividendsBetween,
  lockupsBetween,
  meetingsBetween,
  rightsIssuesBetween,
  type DisclosureEvent,
  type DividendEvent,
  type LockupEvent,
  type MeetingEvent,
  type RightsIssueEvent,
} from '../services/calendar-events'
import { fetchIpoWindow, IpoRowSchema, ipoRow } from './shared/ipo-rows'
import { staleOf } from '../services/reference'
import type { ReferenceResult } from '../services/types'
import { DateParam, IntParam } from './shared/schemas'
import { AS_OF, COMMON_ERRORS, envelopeSchema } from '../http/envelope-schema'
import { oldestAsOf } from '../domain/instant'

/** Who may call it and what it costs: pro group, trial and above. */
const POLICY: AccessPolicy = { group: 'keyed', minTier: 'trial', cost: 1, counted: true }

/** The window: `date` and the following month. */
const WINDOW_DAYS = 30
const DEFAULT_LIMIT = 100
const MAX_LIMIT = 500

/** The sections, in order. */
const SECTIONS = [
  { slug: 'financial_report', title: 'Periodic report disclosures (scheduled and published)' },
  { slug: 'dividend', title: 'Dividends and bonus shares by ex-date' },
  { slug: 'ipo', title: 'IPO subscriptions, allotments and listings' },
  { slug: 'meeting', title: 'Shareholder meetings' },
  { slug: 'lockup_release', title: 'Lock-up expiries' },
  { slug: 'rights_issue', title: 'Rights issues' },
] as const
export type Slug = (typeof SECTIONS)[number]['slug']
const SLUGS = SECTIONS.map((s) => s.slug) as [Slug, ...Slug[]]

const Query = z.object({
  date: DateParam('date').optional().openapi({ description: `Window start, YYYY-MM-DD (default today, Beijing); the window runs ${WINDOW_DAYS} days from it`, example: '2026-10-08' }),
  limit: IntParam('limit', 1, MAX_LIMIT)
    .default(DEFAULT_LIMIT)
    .openapi({ description: `Rows asked of the upstream per section request, 1..${MAX_LIMIT} (default ${DEFAULT_LIMIT}); a section may hold fewer after filtering to the window, or more when it combines requests`, example: 100, type: 'integer', minimum: 1, maximum: MAX_LIMIT }),
})

const FinancialReportRow = z
  .object({
    code: z.string().openapi({ description: 'Stock with our prefix' }),
    name: z.string().openapi({ description: 'Short name' }),
    date: z.string().openapi({ description: 'The day that counts: published, else the revised booking, else the first booking (YYYY-MM-DD)' }),
    report_period: z.string().openapi({ description: 'Period end the report covers, YYYY-MM-DD' }),
    report: z.string().openapi({ description: 'Report name as the exchange calendar prints it, e.g. 2026年三季报' }),
    scheduled_date: z.string().openapi({ description: 'First booked disclosure day' }),
    revised_date: z.string().nullable().openapi({ description: 'Latest day the booking moved to; null if never moved' }),
    published_date: z.string().nullable().openapi({ description: 'Day it was published; null until then' }),
  })
  .openapi('CalendarFinancialReportRow')

const DividendRow = z
  .object({
    code: z.string().openapi({ description: 'Stock with our prefix' }),
    name: z.string().openapi({ description: 'Short name' }),
    date: z.string().openapi({ description: 'Ex-dividend date, YYYY-MM-DD' }),
    record_date: z.string().nullable().openapi({ description: 'Record date, YYYY-MM-DD' }),
    cash_per_share: z.number().openapi({ description: 'Cash dividend, CNY per share, pre-tax (0 when none)' }),
    bonus_per_share: z.number().openapi({ description: 'Bonus and transfer shares per share (10送3转2 → 0.5; 0 when none)' }),
    plan: z.string().nullable().openapi({ description: 'The plan per 10 shares as announced, e.g. 10派5.2元(含税)' }),
  })
  .openapi('CalendarDividendRow')

const LockupRow = z
  .object({
    code: z.string().openapi({ description: 'Stock with our prefix' }),
    name: z.string().openapi({ description: 'Short name' }),
    date: z.string().openapi({ description: 'First day the shares may trade, YYYY-MM-DD' }),
    shares: z.number().openapi({ description: 'Shares freed' }),
    market_value: z.number().nullable().openapi({ description: 'Value of the shares freed, CNY, at the close before the date (the latest close for releases ahead)' }),
    float_ratio_pct: z.number().nullable().openapi({ description: 'Shares freed as a percent of the float before the release' }),
    kind: z.string().nullable().openapi({ description: 'Kind of restricted shares as the exchanges word it, e.g. 首发原股东限售股份 (IPO original holders)' }),
  })
  .openapi('CalendarLockupRow')

const IpoEventRow = IpoRowSchema.extend({ date: z.string().openapi({ description: 'First of its events in the window, YYYY-MM-DD' }) }).openapi('CalendarIpoRow')

const day = (d: string) => z.string().nullable().openapi({ description: `${d}, YYYY-MM-DD; null when the upstream has none (yet)` })

const MeetingRow = z
  .object({
    code: z.string().openapi({ description: 'Stock with our prefix' }),
    name: z.string().openapi({ description: 'Short name' }),
    date: z.string().openapi({ description: 'Meeting day, YYYY-MM-DD' }),
    title: z.string().openapi({ description: 'The meeting as the company names it, e.g. 2025年年度股东大会 (annual) or 2026年第一次临时股东大会 (extraordinary)' }),
    record_date: day('Record date: holders that day may vote'),
    notice_date: day('Day the meeting was called'),
    resolution_date: day('Day its resolutions were announced (null until the meeting is held); a dividend plan it approves is approved from then (/v1/dividend status)'),
    vote_start: day('Online voting opens'),
    vote_end: day('Online voting closes'),
    proposals: z.string().nullable().openapi({ description: 'The proposals as the upstream lists them' }),
  })
  .openapi('CalendarMeetingRow')

const RightsIssueRow = z
  .object({
    code: z.string().openapi({ description: 'Stock with our prefix' }),
    name: z.string().openapi({ description: 'Short name' }),
    date: z.string().openapi({ description: 'Record date (股权登记日): holders that day get the rights, YYYY-MM-DD' }),
    ratio_per_10: z.number().openapi({ description: 'New shares offered per 10 held (10配3 → 3)' }),
    price: z.number().nullable().openapi({ description: 'Subscription price, CNY per new share' }),
    shares: z.number().nullable().openapi({ description: 'New shares issued (planned until the subscription closes)' }),
    shares_before: z.number().nullable().openapi({ description: 'Total shares before the issue' }),
    shares_after: z.number().nullable().openapi({ description: 'Total shares after the issue' }),
    ex_date: day('Ex-rights date'),
    payment_start: day('Subscription payment opens'),
    payment_end: day('Subscription payment closes'),
    listing_date: day('New shares start trading'),
    notice_date: day('Day the issue was announced'),
  })
  .openapi('CalendarRightsIssueRow')

const AnyRow = z.union([FinancialReportRow, DividendRow, IpoEventRow, LockupRow, MeetingRow, RightsIssueRow])

const CalendarData = z
  .object({
    tables: z
      .array(z.object({ title: z.string(), slug: z.enum(SLUGS), rows: z.array(AnyRow) }))
      .openapi({ description: `Sections in order: ${SLUGS.join(', ')}; each section's rows by date` }),
    data: z
      .object({
        financial_report: z.array(FinancialReportRow),
        dividend: z.array(DividendRow),
        ipo: z.array(IpoEventRow),
        meeting: z.array(MeetingRow),
        lockup_release: z.array(LockupRow),
        rights_issue: z.array(RightsIssueRow),
      })
      .openapi({ description: 'The same rows by slug' }),
  })
  .openapi('CalendarData')

const Response = envelopeSchema('CalendarEnvelopeBase', CalendarData, AS_OF.instant('when the oldest of the sections was fetched from the upstream (answers are kept for the whole service for hours)'))
  .extend({ window: z.object({ start: z.string(), end: z.string() }).openapi({ description: 'The window, inclusive Beijing dates' }) })
  .openapi('CalendarEnvelope', {
    example: {
      ok: true,
      endpoint: 'calendar',
      tier: 'trial',
      elapsed_ms: 9,
      source: 'eastmoney',
      as_of: '2026-10-08T10:30:00+08:00',
      window: { start: '2026-10-08', end: '2026-11-07' },
      data: {
        tables: [
          { title: 'Periodic report disclosures (scheduled and published)', slug: 'financial_report', rows: [{ code: 'sh600519', name: '贵州茅台', date: '2026-10-24', report_period: '2026-09-30', report: '2026年三季报', scheduled_date: '2026-10-24', revised_date: null, published_date: null }] },
          { title: 'Dividends and bonus shares by ex-date', slug: 'dividend', rows: [] },
        ],
        data: {
          financial_report: [{ code: 'sh600519', name: '贵州茅台', date: '2026-10-24', report_period: '2026-09-30', report: '2026年三季报', scheduled_date: '2026-10-24', revised_date: null, published_date: null }],
          dividend: [], ipo: [], lockup_release: [],
          meeting: [{
            code: 'sh600519', name: '贵州茅台', date: '2026-05-20', title: '2025年年度股东大会', record_date: '2026-05-13', notice_date: '2026-04-30',
            resolution_date: null, vote_start: '2026-05-20', vote_end: '2026-05-20', proposals: '关于2025年度利润分配方案的议案',
          }],
          rights_issue: [{
            code: 'sz000049', name: '德赛电池', date: '2023-11-29', ratio_per_10: 3, price: 21.16, shares: 85251672, shares_before: null, shares_after: null,
            ex_date: '2023-12-08', payment_start: '2023-11-30', payment_end: '2023-12-06', listing_date: '2023-12-25', notice_date: '2023-11-27',
          }],
        },
      },
    },
  })

const route = admittedRoute(POLICY, {
  method: 'get',
  path: '/v1/calendar',
  operationId: 'calendar',
  tags: ['Pro'],
  summary: 'Corporate event calendar: report disclosures, dividends, IPOs, meetings, lock-up expiries, rights issues',
  description:
    `Per-stock corporate events from \`date\` (default today, Beijing) for ${WINDOW_DAYS} days, sectioned: \`data.tables\` lists ` +
    '`{title, slug, rows}` in the order financial_report, dividend, ipo, meeting, lockup_release, rights_issue, and `data.data` maps ' +
    'each slug to its rows. financial_report is the disclosure schedule (Eastmoney RPT_PUBLIC_BS_APPOIN); dividend the distributions ' +
    'with an ex-date in the window (RPT_SHAREBONUS_DET, the same corporate actions /v1/kline-full adjusts with); ipo the rows of /v1/ipo ' +
    'with an event in the window; meeting the shareholder meetings held in the window (RPT_GENERALMEETING_DETAIL; the meeting that ' +
    'approves a dividend plan is the day /v1/dividend turns the plan approved); lockup_release the lock-up expiries (RPT_LIFT_STAGE); ' +
    'rights_issue the rights issues (配股) with a record date in the window (RPT_IPO_ALLOTMENT). ' +
    'A section cut at `limit` (the upstream holds more rows in the window) is named in `notice`. ' +
    'A section whose upstream failed is empty and named in `errors`; ok:false when every section failed (UPSTREAM_UNAVAILABLE) or no section has a row (NO_DATA), not counted. Not the trading calendar ' +
    '(/v1/trade-calendar), not macro data. Cached for the whole service for hours (`as_of`).',
  request: { query: Query },
  responses: {
    200: { description: 'Sections (ok:false UPSTREAM_UNAVAILABLE when every upstream failed, NO_DATA when no section has a row; not counted)', content: { 'application/json': { schema: Response } } },
    ...COMMON_ERRORS,
  },
}, {
  csv: sectionTable({ financial_report: FinancialReportRow, dividend: DividendRow, ipo: IpoEventRow, meeting: MeetingRow, lockup_release: LockupRow, rights_issue: RightsIssueRow } satisfies Record<Slug, unknown>),
})

type Rows = {
  financial_report: z.infer<typeof FinancialReportRow>[]
  dividend: z.infer<typeof DividendRow>[]
  ipo: z.infer<typeof IpoEventRow>[]
  meeting: z.infer<typeof MeetingRow>[]
  lockup_release: z.infer<typeof LockupRow>[]
  rights_issue: z.infer<typeof RightsIssueRow>[]
}

const reportRow = (e: DisclosureEvent) => ({
  code: e.code, name: e.name, date: e.date, report_period: e.period, report: e.report,
  scheduled_date: e.scheduled, revised_date: e.revised, published_date: e.published,
})

const dividendRow = (e: DividendEvent) => ({
  code: e.code, name: e.name, date: e.exDate, record_date: e.recordDate, cash_per_share: e.cash, bonus_per_share: e.bonus, plan: e.plan,
})

const lockupRow = (e: LockupEvent) => ({
  code: e.code, name: e.name, date: e.freeDate, shares: e.shares, market_value: e.marketValue, float_ratio_pct: e.floatRatio, kind: e.kind,
})

const meetingRow = (e: MeetingEvent) => ({
  code: e.code, name: e.name, date: e.date, title: e.title, record_date: e.recordDate, notice_date: e.noticeDate, resolution_date: e.resolutionDate,
  vote_start: e.voteStart, vote_end: e.voteEnd, proposals: e.proposals,
})

const rightsIssueRow = (e: RightsIssueEvent) => ({
  code: e.code, name: e.name, date: e.date, ratio_per_10: e.ratioPer10, price: e.price, shares: e.shares, shares_before: e.sharesBefore, shares_after: e.sharesAfter,
  ex_date: e.exDate, payment_start: e.paymentStart, payment_end: e.paymentEnd, listing_date: e.listingDate, notice_date: e.noticeDate,
})

const byDate = <T extends { date: string; code: string }>(rows: T[]) => rows.sort((a, b) => (a.date !== b.date ? (a.date < b.date ? -1 : 1) : a.code < b.code ? -1 : a.code > b.code ? 1 : 0))

/** GET /v1/calendar */
export function registerCalendar(app: OpenAPIHono<AppEnv>, services: Services) {
  registerAdmitted(app, route, async (c) => {
    const q = c.req.valid('query')
    const today = beijing(services.now()).date
    const start = q.date ?? today
    const end = addDays(start, WINDOW_DAYS)
    const tag = `from=${start}&to=${end}&limit=${q.limit}&today=${today}`
    // The last good copy of a section: by the question as asked (a blank date is "from today").
    const stale = (section: string) => ({ cls: 'calendar' as const, key: `calendar-${section}?date=${q.date ?? 'today'}&limit=${q.limit}` })

    const reports = seasonsOverlapping(start, end).map((s) =>
      services.reference.fetch(c, `calendar-report?${s.period}&${tag}`, ['eastmoney'], disclosures(s, start, end, q.limit), stale(`report-${s.period}`))
    )
    const [reportResults, dividends, ipos, lockups, meetings, rights] = await Promise.all([
      Promise.all(reports),
      services.reference.fetch(c, `calendar-dividend?${tag}`, ['eastmoney'], dividendsBetween(start, end, q.limit), stale('dividend')),
      fetchIpoWindow(c, services, start),
      services.reference.fetch(c, `calendar-lockup?${tag}`, ['eastmoney'], lockupsBetween(start, end, q.limit), stale('lockup')),
      services.reference.fetch(c, `calendar-meeting?${tag}`, ['eastmoney'], meetingsBetween(start, end, q.limit), stale('meeting')),
      services.reference.fetch(c, `calendar-rights?${tag}`, ['eastmoney'], rightsIssuesBetween(start, end, q.limit), stale('rights')),
    ])

    const rows: Rows = { financial_report: [], dividend: [], ipo: [], meeting: [], lockup_release: [], rights_issue: [] }
    const errors: Partial<Record<Slug, string>> = {}
    /** Sections cut at `limit`: the upstream holds more rows in the window. */
    const cut = new Set<Slug>()
    const results: ReferenceResult<unknown>[] = [...reportResults, dividends, ipos, lockups, meetings, rights]
    for (const r of reportResults) {
      if (r.ok) {
        rows.financial_report.push(...r.value.events.map(reportRow))
        if (r.value.more) cut.add('financial_report')
      } else errors.financial_report = r.error
    }
    if (dividends.ok) {
      rows.dividend = dividends.value.events.map(dividendRow)
      if (dividends.value.more) cut.add('dividend')
    } else errors.dividend = dividends.error
    if (ipos.ok) {
      rows.ipo = ipos.value.map((i) => ipoRow(i, start, end)).filter((r) => r.events.length > 0).map((r) => ({ ...r, date: r.events[0].date }))
    } else errors.ipo = ipos.error
    if (lockups.ok) {
      rows.lockup_release = lockups.value.events.map(lockupRow)
      if (lockups.value.more) cut.add('lockup_release')
    } else errors.lockup_release = lockups.error
    if (meetings.ok) {
      rows.meeting = meetings.value.events.map(meetingRow)
      if (meetings.value.more) cut.add('meeting')
    } else errors.meeting = meetings.error
    if (rights.ok) {
      rows.rights_issue = rights.value.events.map(rightsIssueRow)
      if (rights.value.more) cut.add('rights_issue')
    } else errors.rights_issue = rights.error
    byDate(rows.financial_report)
    byDate(rows.ipo)

    const good = results.filter((r): r is Extract<ReferenceResult<unknown>, { ok: true }> => r.ok)
    const sources = new Set(good.map((r) => r.source))
    const data = { tables: SECTIONS.map((s) => ({ title: s.title, slug: s.slug, rows: rows[s.slug] })), data: rows }
    const window = { start, end }
    const notice = cut.size ? `${[...cut].join(', ')}: more rows exist in the window than limit=${q.limit} asked for; raise limit (up to ${MAX_LIMIT}) or shorten the window with date.` : undefined
    if (good.length === 0) {
      const failed = results.filter((r): r is Extract<ReferenceResult<unknown>, { ok: false }> => !r.ok)
      const code = failed.every((r) => r.code === 'NO_DATA') ? 'NO_DATA' : 'UPSTREAM_UNAVAILABLE'
      return answer(c, 'calendar', { ok: false, source: 'none', data, window, code, error: failed.map((r) => r.error).join('; '), errors })
    }
    const total = SECTIONS.reduce((n, s) => n + rows[s.slug].length, 0)
    if (total === 0) {
      // Every channel answered, and none had anything: "returned nothing" (a month of the
      // whole market never lacks every kind of event), not an answer to count.
      const error = `no event of any kind between ${start} and ${end} from ${[...sources].join(', ')}` + (Object.keys(errors).length ? `; ${Object.values(errors).join('; ')}` : '')
      return answer(c, 'calendar', { ok: false, source: 'none', data, window, code: 'NO_DATA', error, ...(Object.keys(errors).length ? { errors } : {}) })
    }
    const asOf = oldestAsOf(good.map((r) => r.as_of))
    // `data` is sectioned: tell admission the row count itself.
    return answer(
      c,
      'calendar',
      {
        ok: true,
        source: sources.size === 1 ? [...sources][0] : 'multi',
        data,
        as_of: asOf,
        window,
        ...staleOf(results, notice),
        ...(Object.keys(errors).length ? { errors } : {}),
      },
      { rows: total }
    )
  })
}
