import { z, type OpenAPIHono } from '@hono/zod-openapi'
import { admittedRoute, registerAdmitted } from '../access/route'
import type { AccessPolicy } from '../access/tiers'
import { addDays, beijing } from '../domain/dates'
import { standing } from '../domain/valuation-percentile'
import type { AppEnv } from '../http/context'
import { answer } from '../http/answer'
import type { Services } from '../services/types'
import { boardDividendYield, boardHistory, valuationBoard, type BoardValuationDay, type ValuationBoard } from '../services/sector-valuation'
import { oneStock } from './shared/stock-code'
import { staleOf } from '../services/reference'
import { AS_OF, COMMON_ERRORS, envelopeSchema } from '../http/envelope-schema'
import { oldestAsOf } from '../domain/instant'

/** Who may call it and what it costs: pro group, trial and above. */
const POLICY: AccessPolicy = { group: 'keyed', minTier: 'trial', cost: 1, counted: true }

/** The percentile window: five years of daily rows back from the data date. */
const WINDOW_YEARS = 5
/** How far back the latest rows are looked for (a long holiday is under two weeks). */
const RECENT_DAYS = 20

/** What the dividend yield is, since the valuation report has no column for it. */
const DIVIDEND_YIELD_NOTE =
  "computed here (Eastmoney's industry valuation report has no such column): cash dividends with an ex-date in the twelve months to the data date (RPT_SHAREBONUS_DET) × the constituents' shares, over their market cap (RPT_VALUEANALYSIS_DET); for the data date only, so there is no history to rank it in"

const Query = z.object({
  code: z.string({ error: 'code is required' }).openapi({
    description: 'An A-share stock with its prefix (its industry board is valued) or an industry board `pt` plus four digits (Eastmoney BK number)',
    example: 'sh600519',
  }),
})

const Window = z
  .object({
    start: z.string().openapi({ description: 'First day in the window with a value, YYYY-MM-DD' }),
    end: z.string().openapi({ description: 'Last day (the data date), YYYY-MM-DD' }),
    days: z.number().int().openapi({ description: 'Trading days with a positive value in the window' }),
  })
  .openapi('SectorValuationWindow')

const Metric = z
  .object({
    value: z.number().nullable().openapi({ description: 'On the data date; a multiple (×) except dividend_yield (percent). Negative when the board as a whole lost money or cash; null when the upstream has none' }),
    percentile: z.number().nullable().openapi({ description: `0–100: percent of the window's days with a strictly lower value (the data date counts as a day). Only positive values rank; null when the value is null or not positive` }),
    window: Window.nullable().openapi({ description: `The days the percentile is over: up to ${WINDOW_YEARS} years back from the data date; null when there are none` }),
    note: z.string().nullable().openapi({ description: 'Why value or percentile is null, when it is' }),
  })
  .openapi('SectorValuationMetric')

const Data = z
  .object({
    board: z
      .object({
        code: z.string().openapi({ description: 'Industry board with our prefix (`pt0477` = Eastmoney BK0477), usable with /v1/quote and /v1/kline' }),
        name: z.string().openapi({ description: 'Board name as Eastmoney prints it' }),
        constituents: z.number().int().nullable().openapi({ description: 'Stocks in the board on the data date' }),
        loss_making: z.number().int().nullable().openapi({ description: 'Constituents with a trailing-twelve-month net loss' }),
        data_date: z.string().openapi({ description: 'Trading day the values are of (the report is filled after the close), YYYY-MM-DD' }),
      })
      .openapi({ description: 'The board valued' }),
    stock: z.string().nullable().openapi({ description: 'The stock asked for, when `code` was a stock; null for a board code' }),
    pe_ttm: Metric.openapi({ description: 'Σ market cap / Σ attributable net profit of the last four quarters (overall method)' }),
    pb_mrq: Metric.openapi({ description: 'Σ market cap / Σ parent equity of the latest balance sheets' }),
    ps_ttm: Metric.openapi({ description: 'Σ market cap / Σ revenue of the last four quarters' }),
    pcf_ttm: Metric.openapi({ description: 'Σ market cap / Σ operating cash flow of the last four quarters' }),
    dividend_yield: Metric.openapi({ description: "Percent, trailing twelve months, computed from the constituents' cash dividends over their market cap (the report has no column for it); no percentile (no history); note says how it was made, or why it is null" }),
  })
  .openapi('SectorValuationData')

const EXAMPLE_WINDOW = { start: '2021-10-22', end: '2026-10-21', days: 1212 }
const Response = envelopeSchema('SectorValuationEnvelope', Data.nullable().openapi({ description: 'null with ok:false' }), AS_OF.instant('when the oldest of the figures was fetched from the upstream (answers are kept for the whole service for hours)')).openapi({
  example: {
    ok: true,
    endpoint: 'sector-valuation',
    tier: 'trial',
    elapsed_ms: 12,
    source: 'eastmoney',
    as_of: '2026-10-22T10:30:00+08:00',
    data: {
      board: { code: 'pt0477', name: '酿酒行业', constituents: 178, loss_making: 9, data_date: '2026-10-21' },
      stock: 'sh600519',
      pe_ttm: { value: 24.18, percentile: 31.27, window: EXAMPLE_WINDOW, note: null },
      pb_mrq: { value: 5.02, percentile: 12.5, window: EXAMPLE_WINDOW, note: null },
      ps_ttm: { value: 6.4, percentile: 40.1, window: EXAMPLE_WINDOW, note: null },
      pcf_ttm: { value: 19.7, percentile: 22.03, window: EXAMPLE_WINDOW, note: null },
      dividend_yield: { value: 2.61, percentile: null, window: null, note: `${DIVIDEND_YIELD_NOTE}: 161 of 178 constituents paid cash from 2025-10-22 to 2026-10-21` },
    },
  },
})

const route = admittedRoute(POLICY, {
  method: 'get',
  path: '/v1/sector-valuation',
  operationId: 'sectorValuation',
  tags: ['Pro'],
  summary: "An industry board's PE, PB, PS, PCF and their historical percentiles",
  description:
    "The valuation of one Eastmoney industry board: `code` is the board (`pt0477`) or an A-share stock, whose board is then valued. " +
    'PE TTM, PB MRQ, PS TTM and PCF TTM on the latest data date, each with its percentile over the last ' +
    `${WINDOW_YEARS} years of daily values (the share of days with a lower value; only positive values rank) and the window it was computed over. ` +
    'Source: Eastmoney datacenter `RPT_VALUEINDUSTRY_DET` (the board per day; overall method, Σ market cap / Σ the figure) and ' +
    "`RPT_VALUEANALYSIS_DET` (a stock's board, and the constituents' shares and caps). The report has no dividend yield: it is computed from " +
    "the constituents' cash dividends over the twelve months to the data date (RPT_SHAREBONUS_DET) over their market cap, without a percentile; null with the reason when that fails. " +
    'A board code the report does not value, or a stock it has no row of, answers ok:false NO_DATA (not counted). Cached for the whole service for hours (`as_of`).',
  request: { query: Query },
  responses: {
    200: { description: 'The board and its ratios (ok:false NO_DATA or UPSTREAM_UNAVAILABLE; not counted)', content: { 'application/json': { schema: Response } } },
    ...COMMON_ERRORS,
  },
}, { check: (_c, q) => void oneStock(q.code, 'sector-valuation', ['stock', 'sector']) })

/** Five years before `date`, same calendar day. */
const yearsBefore = (date: string, years: number) => `${String(Number(date.slice(0, 4)) - years).padStart(4, '0')}${date.slice(4)}`

type Series = (d: BoardValuationDay) => number | null

const metric = (days: BoardValuationDay[], pick: Series, start: string) => {
  const s = standing(days.map((d) => ({ date: d.date, value: pick(d) })), start)
  const note = s.value === null ? 'the upstream has no value on the data date' : s.percentile === null ? 'not positive (a loss or a cash drain): not ranked' : null
  return { ...s, note }
}

/** GET /v1/sector-valuation */
export function registerSectorValuation(app: OpenAPIHono<AppEnv>, services: Services) {
  registerAdmitted(app, route, async (c) => {
    const inst = oneStock(c.req.valid('query').code, 'sector-valuation', ['stock', 'sector'])
    const today = beijing(services.now()).date
    const since = addDays(today, -RECENT_DAYS)
    const from = yearsBefore(today, WINDOW_YEARS)
    const tag = `today=${today}`
    const fail = (r: { source: string; code: 'NO_DATA' | 'UPSTREAM_UNAVAILABLE'; error: string }) =>
      answer(c, 'sector-valuation', { ok: false, source: r.source, data: null, code: r.code, error: `${inst.code}: ${r.error}` })

    // A stock's board is named by its BK number, then looked up in the industry report itself: its
    // history is asked by that report's own board number.
    const board = await services.reference.fetch<ValuationBoard>(c, `sector-valuation-board?${inst.code}&${tag}`, ['eastmoney'], valuationBoard(inst, since), { cls: 'sectorValuation', key: `sector-valuation-board?${inst.code}` })
    if (!board.ok) return fail(board)
    const b = board.value
    const history = await services.reference.fetch(c, `sector-valuation-history?${b.boardCode}&from=${from}&${tag}`, ['eastmoney'], boardHistory(b.boardCode, from), { cls: 'sectorValuation', key: `sector-valuation-history?${b.boardCode}` })
    if (!history.ok) return fail(history)
    const days = history.value
    const last = days[days.length - 1]
    const start = yearsBefore(last.date, WINDOW_YEARS)
    const dy = await services.reference.fetch(c, `sector-valuation-yield?${b.boardCode}&date=${last.date}`, ['eastmoney'], boardDividendYield(b.boardCode, last.date), {
      cls: 'sectorValuation',
    })
    const data = {
      board: { code: 'pt' + b.bk, name: b.name, constituents: last.count, loss_making: last.lossCount, data_date: last.date },
      stock: inst.kind === 'stock' ? inst.code : null,
      pe_ttm: metric(days, (d) => d.peTtm, start),
      pb_mrq: metric(days, (d) => d.pb, start),
      ps_ttm: metric(days, (d) => d.ps, start),
      pcf_ttm: metric(days, (d) => d.pcf, start),
      dividend_yield: dy.ok
        ? { value: dy.value.value, percentile: null, window: null, note: `${DIVIDEND_YIELD_NOTE}: ${dy.value.payers} of ${dy.value.constituents} constituents paid cash from ${dy.value.from} to ${dy.value.to}` }
        : { value: null, percentile: null, window: null, note: `not computed: ${dy.error}` },
    }
    const asOf = oldestAsOf([board.as_of, history.as_of, ...(dy.ok ? [dy.as_of] : [])])
    return answer(c, 'sector-valuation', { ok: true, source: history.source, data, as_of: asOf, ...staleOf([board, history, dy]) })
  })
}
