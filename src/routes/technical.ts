import { z, type OpenAPIHono } from '@hono/zod-openapi'
import { guardedRoute } from '../access/route'
import type { AccessPolicy } from '../access/tiers'
import { TECHNICAL_COLUMNS } from '../domain/indicators/columns'
import type { Instrument, InstrumentKind } from '../domain/instrument'
import { parseSymbol, SymbolError } from '../domain/symbols'
import type { AppEnv } from '../http/context'
import { envelope } from '../http/envelope'
import { queryIssue, ValidationError } from '../http/validation'
import type { Services } from '../services'
import { COMMON_ERRORS, envelopeSchema } from '../http/envelope-schema'
import { upstreamFailure } from '../http/outcome'
import { technicalOfOne } from '../features/technical/one-row'

/** Who may call it and what it costs: the pro group, trial and above. */
export const POLICY: AccessPolicy = { group: 'pro', minTier: 'trial', cost: 1, counted: true }

/** The kinds a technical row is computed for. */
const SERVED: ReadonlySet<InstrumentKind> = new Set(['stock', 'index', 'etf', 'hk', 'us', 'us-index'])
/** What a refused code is, in the words of the 422. */
const KIND_NAME: Partial<Record<InstrumentKind, string>> = { bond: 'a convertible bond', sector: 'a sector', future: 'a futures contract', forex: 'a forex pair' }
const SUPPORTED = 'technical serves A-share stocks (sh, sz, bj), A-share indexes and ETFs, HK stocks (hk00700), US stocks (usAAPL) and US indexes (us.DJI)'

const Query = z.object({
  code: z.string({ error: 'code is required' }).openapi({ description: 'One code with its market prefix: A-share stock, index or ETF, HK, US stock or index', example: 'sh600519' }),
})

const columnSchema = (kind: 'id' | 'price' | 'value', description: string) => {
  if (kind === 'id') return z.string().openapi({ description })
  const unit = kind === 'price' ? ' Price level, rounded to the instrument\'s price decimals (2 for A-share stocks and indexes, 3 for ETFs and HK).' : ' Rounded to 4 decimals.'
  return z.number().nullable().openapi({ description: `${description}.${unit} null while the history is too short or the value is undefined (e.g. a flat range).` })
}

/** One technical row: also the item `data` of /v1/technical-batch. */
export const TechnicalRowSchema = z
  .object(Object.fromEntries(TECHNICAL_COLUMNS.map(([name, kind, description]) => [name, name === 'name' ? z.string().nullable().openapi({ description }) : columnSchema(kind, description)])))
  .openapi('TechnicalRow', { description: 'The 55 columns of one symbol on `date`, in this order (MyTT/Tongdaxin formulas and default parameters)' })

export const EXAMPLE_ROW = {
  code: 'sh600519', name: '贵州茅台', date: '2026-11-20', closePrice: 1520, ma_MA_5: 1512.4, ma_MA_10: 1503.87, ma_MA_20: 1498.02, ma_MA_30: 1490.55,
  ma_MA_60: 1476.3, ma_MA_120: 1452.18, ma_MA_250: 1431.66, ema_EMA_12: 1508.93, ema_EMA_26: 1497.41, macd_DIF: 11.5212, macd_DEA: 9.8731,
  macd_MACD: 3.2962, kdj_K: 71.2043, kdj_D: 64.5521, kdj_J: 84.5087, rsi_RSI_6: 63.1187, rsi_RSI_12: 58.9034, rsi_RSI_24: 55.2279,
  boll_UPPER: 1531.25, boll_MID: 1498.02, boll_LOWER: 1464.79, wr_WR_10: 18.4211, wr_WR_6: 12.0155, cci_CCI: 96.3314, bias_BIAS_6: 0.4963,
  bias_BIAS_12: 1.0233, bias_BIAS_24: 1.4127, atr_TR: 19.8, atr_ATR: 24.3155, dmi_PDI: 28.1047, dmi_MDI: 17.3398, dmi_ADX: 21.0822,
  dmi_ADXR: 19.7716, trix_TRIX: 0.0719, trix_TRMA: 0.0533, obv_OBV: 48211900, vr_VR: 131.0447, psy_PSY: 58.3333, psy_PSYMA: 54.1667,
  roc_ROC: 2.7027, roc_MAROC: 1.9934, mtm_MTM: 40, mtm_MTMMA: 29.5167, dma_DIF: 21.7208, dma_DIFMA: 18.4416, bbi_BBI: 1505.96,
  vol_MA_5: 2087360, vol_MA_10: 2011250, brar_AR: 108.6621, brar_BR: 117.3052, mfi_MFI: 61.8735,
}

const Response = envelopeSchema('TechnicalEnvelopeBase', z.array(TechnicalRowSchema).openapi({ description: 'One row (empty with ok:false)' }))
  .extend({
    history: z.enum(['store', 'channel']).optional().openapi({ description: '`store`: the stock\'s whole stored daily history since 2016-08-08 (or listing); `channel`: the channel\'s last 1,212 day bars' }),
    bars: z.number().int().optional().openapi({ description: 'Daily bars the row was computed over (OBV sums from the first of them)' }),
  })
  .openapi('TechnicalEnvelope', {
    example: { ok: true, endpoint: 'technical', tier: 'trial', elapsed_ms: 48, source: 'tencent', as_of: '2026-11-20 15:00:03', history: 'store', bars: 2516, data: [EXAMPLE_ROW] },
  })

const route = guardedRoute(POLICY, {
  method: 'get',
  path: '/v1/technical',
  operationId: 'technical',
  tags: ['Pro'],
  summary: 'Technical indicators of one symbol, one wide row',
  description:
    'The 55 columns of DESIGN §12 (MA, EMA, MACD, KDJ, RSI, BOLL, WR, CCI, BIAS, ATR, DMI, TRIX, OBV, VR, PSY, ROC, MTM, DMA, BBI, volume MAs, BRAR, MFI) ' +
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
}, { check: (_c, q) => void instrumentOf(q.code) })

/** The instrument `code` names when a technical row can be computed for it, else why not. */
export function technicalInstrument(code: string): Instrument | { error: string } {
  let inst: Instrument
  try {
    inst = parseSymbol(code)
  } catch (e) {
    if (!(e instanceof SymbolError)) throw e
    return { error: `${e.message}. ${SUPPORTED}` }
  }
  if (!SERVED.has(inst.kind)) return { error: `${inst.code} is ${KIND_NAME[inst.kind] ?? inst.kind}; ${SUPPORTED}` }
  return inst
}

/** The instrument a valid `code` names; throws the 422 saying what is supported. */
function instrumentOf(code: string): Instrument {
  const r = code.includes(',') ? { error: `one code per call; ${SUPPORTED}` } : technicalInstrument(code)
  if ('error' in r) throw new ValidationError([queryIssue('code', r.error, code)])
  return r
}

/** GET /v1/technical */
export function registerTechnical(app: OpenAPIHono<AppEnv>, services: Services) {
  app.openapi(route, async (c) => {
    const inst = instrumentOf(c.req.valid('query').code)
    const r = await technicalOfOne(services, c.env.STORE, inst)
    if (!r.ok) {
      return c.json(envelope(c, 'technical', { ok: false, source: 'none', data: [], ...upstreamFailure(r.attempts, inst.code) }), 200)
    }
    const row = r.row
    const source = services.sourcePrefix + r.channel
    if (!row) return c.json(envelope(c, 'technical', { ok: false, source, data: [], code: 'NO_DATA', error: `${inst.code}: no daily bars` }), 200)
    const asOf = r.quote.time && r.quote.date === row.date ? `${r.quote.date} ${r.quote.time}` : row.date
    return c.json(envelope(c, 'technical', { ok: true, source, data: [row], as_of: asOf, history: r.history, bars: r.bars }), 200)
  })
}
