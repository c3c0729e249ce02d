import { z, type OpenAPIHono } from '@hono/zod-openapi'
import { admittedRoute, registerAdmitted } from '../access/route'
import type { AccessPolicy } from '../access/tiers'
import { HISTORY_START } from '../data/holidays'
import { FQ_MODES } from '../domain/adjust'
import type { Instrument } from '../domain/instrument'
import type { AppEnv } from '../http/context'
import { buildingMessage } from '../domain/build-progress'
import { during } from '../runtime/request-scope'
import { answer, answerBody } from '../http/answer'
import { envelopeWithDataBytes } from '../http/envelope'
import { dataTable, schemaColumns, wantsCsv } from '../http/csv-answer'
import { csvRowStream, csvStreamResponse } from '../http/csv-stream'
import { queryIssue, ValidationError, type ValidationIssue } from '../http/validation'
import type { Services } from '../services/types'
import { numDate } from '../domain/date-num'
import type { History } from '../store/shapes'
import type { StoreRequest } from '../services/types'
import { fullRowsBytes, lazyFullRows } from '../features/technical/kline-full-rows'
import { oneStockOrIssue } from './shared/stock-code'
import { DateParam } from './shared/schemas'
import { AS_OF, BuildProgressSchema, COMMON_ERRORS, envelopeSchema } from '../http/envelope-schema'

/** Who may call it and what it costs: standard and above, trial excluded. */
const POLICY: AccessPolicy = { group: 'keyed', minTier: 'standard', excludeTiers: ['trial'], cost: 1, counted: true }

const Query = z.object({
  code: z.string({ error: 'code is required' }).openapi({ description: 'One A-share stock with its sh, sz or bj prefix', example: 'sh600519' }),
  fq: z
    .enum(FQ_MODES, { error: `fq must be one of ${FQ_MODES.join(', ')}` })
    .default('qfq')
    .openapi({ description: 'Adjustment: qfq forward-adjusted (default; the latest prices are real), hfq backward-adjusted (the first stored bar is real), nofq unadjusted', example: 'qfq' }),
  start: DateParam('start').optional().openapi({ description: `First date, YYYY-MM-DD, ${HISTORY_START} or later (default: the start of the history)`, example: '2025-01-02' }),
  end: DateParam('end').optional().openapi({ description: 'Last date, YYYY-MM-DD, inclusive (default: the latest stored trading day)', example: '2026-11-20' }),
})

const FullRowSchema = z
  .object({
    time: z.string().openapi({ description: 'Trading day `YYYY-MM-DD`' }),
    open: z.string().openapi({ description: 'Open price (adjusted as `fq` says), 2 decimals' }),
    high: z.string().openapi({ description: 'High price' }),
    low: z.string().openapi({ description: 'Low price' }),
    close: z.string().openapi({ description: 'Close price' }),
    volume: z.string().openapi({ description: 'Volume in shares (never adjusted)' }),
    amount: z.string().openapi({ description: 'Turnover amount in CNY' }),
  })
  .openapi('FullHistoryRow')

/** The columns of a row, in order. */
const FULL_COLUMNS = schemaColumns(FullRowSchema)

const Response = envelopeSchema('KlineFullEnvelopeBase', z.array(FullRowSchema).openapi({ description: 'Daily bars, oldest first' }), AS_OF.date('the newest bar\'s session'))
  .extend({
    fq: z.enum(FQ_MODES).optional().openapi({ description: 'The adjustment applied' }),
    progress: BuildProgressSchema.optional().openapi({ description: 'With code BUILDING: how far the history build is' }),
  })
  .openapi('KlineFullEnvelope', {
    example: {
      ok: true,
      endpoint: 'kline-full',
      tier: 'standard',
      elapsed_ms: 6,
      source: 'store',
      fq: 'qfq',
      as_of: '2026-11-20',
      data: [
        { time: '2016-08-08', open: '236.51', high: '240.09', low: '234.78', close: '239.05', volume: '5189500', amount: '1515448311.79' },
        { time: '2016-08-09', open: '239.30', high: '241.20', low: '237.88', close: '240.66', volume: '4012300', amount: '1190256114.20' },
      ],
    },
  })

const route = admittedRoute(POLICY, {
  method: 'get',
  path: '/v1/kline-full',
  operationId: 'klineFull',
  tags: ['Pro'],
  summary: 'Whole daily history of one A-share stock',
  description:
    `Every daily bar since ${HISTORY_START} (or the listing day), about 2,465 bars, no 1,212 cap; exactly 7 string columns ` +
    '`time, open, high, low, close, volume, amount`, **oldest first** (`data[0]` is the first bar; unlike /v1/kline, which is newest first). ' +
    '`fq` picks forward- (qfq, default), backward- (hfq) or un-adjusted (nofq) prices, computed from the stored raw bars and the ' +
    'dividends and bonus shares: each ex-date scales earlier prices by ((P − cash) / (1 + bonus)) / P, P the close before it. ' +
    'A-share stocks only (sh/sz/bj); ETFs, convertible bonds, indexes, sectors, HK, US, futures and forex get 422. ' +
    'Tier standard or above (trial excluded). Served from the history store; a stock whose history is not built yet answers ok:false (not counted).',
  request: { query: Query },
  responses: {
    200: { description: 'Bars (ok:false with code NO_DATA when the history is not in the store, or BUILDING with `progress` while the history is being built, e.g. on the first `npm start`; not counted)', content: { 'application/json': { schema: Response } } },
    ...COMMON_ERRORS,
  },
}, { check: (_c, q) => void checkQuery(q), csv: dataTable(FULL_COLUMNS) })

/** The stock a valid query asks for; throws the 422 naming every field that is wrong. */
function checkQuery(q: z.output<typeof Query>): Instrument {
  const issues: ValidationIssue[] = []
  const inst = oneStockOrIssue(q.code, 'kline-full')
  if ('loc' in inst) issues.push(inst)
  for (const f of ['start', 'end'] as const) {
    const v = q[f]
    if (v && v < HISTORY_START) issues.push(queryIssue(f, `${f} must be ${HISTORY_START} or later (the history starts there)`, v))
  }
  if (q.start && q.end && q.start > q.end) issues.push(queryIssue('start', `start ${q.start} is after end ${q.end}`, q.start))
  if (issues.length) throw new ValidationError(issues)
  return inst as Instrument
}

/** Why there is nothing to serve for a valid stock code. */
async function noHistoryReason(services: Services, c: StoreRequest, code: string): Promise<string> {
  const universe = await services.store.universe(c)
  if (universe && !universe.codes.includes(code)) return `${code} is not in the A-share list of ${universe.date} (not listed, or delisted)`
  return `the daily history of ${code} has not been built yet; run the backfill (npm run backfill) or wait for the after-close job`
}

/** GET /v1/kline-full */
export function registerKlineFull(app: OpenAPIHono<AppEnv>, services: Services) {
  registerAdmitted(app, route, async (c) => {
    const q = c.req.valid('query')
    const code = checkQuery(q).code

    const h = await during('store', services.store.history(c, code))
    if (!h) {
      const build = await during('store', services.store.buildUnderWay(c))
      if (build?.buildsHistoryOf(code)) {
        const { progress } = build
        const error = buildingMessage(`the daily history of ${code}`, progress)
        return answer(c, 'kline-full', { ok: false, source: 'store', data: [], fq: q.fq, code: 'BUILDING', error, progress })
      }
      const error = await during('store', noHistoryReason(services, c, code))
      return answer(c, 'kline-full', { ok: false, source: 'store', data: [], fq: q.fq, code: 'NO_DATA', error })
    }
    if (wantsCsv(c)) {
      // Streamed a chunk of rows at a time: the answer is never held whole (src/http/csv-stream.ts).
      const { count, rows } = lazyFullRows(h, q.fq, q.start, q.end)
      return csvStreamResponse(c, csvRowStream(FULL_COLUMNS, rows), { ok: true, rows: count }) as never
    }
    const { count, bytes, last } = fullRowsBytes(h, q.fq, q.start, q.end)
    const notice = count === 0 ? `no bars of ${code} between ${q.start ?? HISTORY_START} and ${q.end ?? h.last} (history ${numRange(h)})` : undefined
    const body = envelopeWithDataBytes(c, 'kline-full', { ok: true, source: 'store', fq: q.fq, as_of: last ?? h.last, ...(notice ? { notice } : {}) }, bytes)
    return answerBody(c, body, { ok: true, rows: count }, { 'Content-Type': 'application/json' }) as never
  })
}

const numRange = (h: History) => (h.t.length ? `${numDate(h.t[0])}..${h.last}` : 'empty')
