import { z, type OpenAPIHono } from '@hono/zod-openapi'
import { dataTable, schemaColumns } from '../http/csv-answer'
import { admittedRoute, registerAdmitted } from '../access/route'
import type { AccessPolicy } from '../access/tiers'
import { quoteAsOf } from '../domain/instant'
import type { Instrument } from '../domain/instrument'
import type { AppEnv } from '../http/context'
import { answer } from '../http/answer'
import { queryIssue, ValidationError } from '../http/validation'
import type { Services } from '../services/types'
import { AS_OF, COMMON_ERRORS, envelopeSchema } from '../http/envelope-schema'
import { upstreamFailure } from '../http/outcome'
import { technicalOfOne } from '../features/technical/one-row'
import { EXAMPLE_ROW, SUPPORTED, technicalInstrument, TechnicalRowSchema } from './shared/technical-row'

/** Who may call it and what it costs: the pro group, trial and above. */
const POLICY: AccessPolicy = { group: 'keyed', minTier: 'trial', cost: 1, counted: true }

const Query = z.object({
  code: z.string({ error: 'code is required' }).openapi({ description: 'One code with its market prefix: A-share stock, index or ETF, HK, US stock or index', example: 'sh600519' }),
})

const Response = envelopeSchema(
  'TechnicalEnvelopeBase',
  z.array(TechnicalRowSchema).openapi({ description: 'One row (empty with ok:false)' }),
  AS_OF.either('during a session the live quote\'s time stamp, an instant on its exchange\'s clock; otherwise the row\'s session date')
)
  .extend({
    history: z.enum(['store', 'channel']).optional().openapi({ description: '`store`: the stock\'s whole stored daily history since 2016-08-08 (or listing); `channel`: the channel\'s last 1,212 day bars' }),
    bars: z.number().int().optional().openapi({ description: 'Daily bars the row was computed over (OBV sums from the first of them)' }),
  })
  .openapi('TechnicalEnvelope', {
    example: { ok: true, endpoint: 'technical', tier: 'trial', elapsed_ms: 48, source: 'tencent', as_of: '2026-11-20T15:00:03+08:00', history: 'store', bars: 2516, data: [EXAMPLE_ROW] },
  })

const route = admittedRoute(POLICY, {
  method: 'get',
  path: '/v1/technical',
  operationId: 'technical',
  tags: ['Pro'],
  summary: 'Technical indicators of one symbol, one wide row',
  description:
    '55 columns (MA, EMA, MACD, KDJ, RSI, BOLL, WR, CCI, BIAS, ATR, DMI, TRIX, OBV, VR, PSY, ROC, MTM, DMA, BBI, volume MAs, BRAR, MFI) ' +
    'for the latest daily bar, computed with the Tongdaxin formulas as MyTT states them (EMA α = 2/(n+1) seeded with the first close, Chinese SMA(X, n, m), ' +
    'BOLL with the population deviation, MACD bar = 2 × (DIF − DEA), simple-mean ATR and ADX; see each column) over forward-adjusted (qfq) daily bars: ' +
    'for A-share stocks the whole stored history, otherwise the last 1,212 day bars, so the recursive averages have converged. ' +
    'During a session the last bar is today\'s live bar (`date` today, `as_of` the quote\'s time, `closePrice` the current price = /v1/quote `data[0].last`); ' +
    'after the close it is the day\'s final bar. Nothing after `date` enters the computation. A-share stocks, indexes and ETFs, HK and US stocks, US indexes; ' +
    'other codes get 422. Tier trial or above.',
  request: { query: Query },
  responses: {
    200: { description: 'One row (ok:false when every channel failed; not counted)', content: { 'application/json': { schema: Response } } },
    ...COMMON_ERRORS,
  },
}, { check: (_c, q) => void instrumentOf(q.code), csv: dataTable(schemaColumns(TechnicalRowSchema)) })

/** The instrument a valid `code` names; throws the 422 saying what is supported. */
function instrumentOf(code: string): Instrument {
  const r = code.includes(',') ? { error: `one code per call; ${SUPPORTED}` } : technicalInstrument(code)
  if ('error' in r) throw new ValidationError([queryIssue('code', r.error, code)])
  return r
}

/** GET /v1/technical */
export function registerTechnical(app: OpenAPIHono<AppEnv>, services: Services) {
  registerAdmitted(app, route, async (c) => {
    const inst = instrumentOf(c.req.valid('query').code)
    const r = await technicalOfOne(services, c, inst)
    if (!r.ok) {
      return answer(c, 'technical', { ok: false, source: 'none', data: [], ...upstreamFailure(r.attempts, inst.code) })
    }
    const row = r.row
    const source = services.sourcePrefix + r.channel
    if (!row) return answer(c, 'technical', { ok: false, source, data: [], code: 'NO_DATA', error: `${inst.code}: no daily bars` })
    const asOf = r.quote.date === row.date ? quoteAsOf(inst.prefix, r.quote.date, r.quote.time) : row.date
    return answer(c, 'technical', { ok: true, source, data: [row], as_of: asOf, history: r.history, bars: r.bars })
  })
}
