import { z, type OpenAPIHono } from '@hono/zod-openapi'
import { guardedRoute } from '../access/route'
import { TIER_LIMITS, type AccessPolicy } from '../access/tiers'
import { HISTORY_START } from '../data/holidays'
import { mapLimit } from '../domain/concurrency'
import { beijing } from '../domain/dates'
import { toColumns } from '../domain/indicators/bars'
import type { TechnicalRow } from '../domain/indicators/columns'
import { technicalRow } from '../domain/indicators/row'
import type { Instrument } from '../domain/instrument'
import { tradingDayOnOrBefore } from '../domain/trading-calendar'
import type { AppEnv } from '../http/context'
import { envelope, recordOutcome } from '../http/envelope'
import { PRICE_DECIMALS } from '../http/format'
import { queryIssue, ValidationError, type ValidationIssue } from '../http/validation'
import type { Services } from '../services'
import { latestTechnicalsDate, readTechnicals, type TechnicalsDay } from '../store/technicals'
import { COMMON_ERRORS, DateParam, envelopeSchema } from './schemas'
import { describeAttempts } from './series-response'
import { EXAMPLE_ROW, technicalInstrument, TechnicalRowSchema } from './technical'
import { technicalBars } from './technical-bars'

/** Pro and above (SPEC); billed one unit per symbol returned, so the reservation is adjusted at settle. */
export const POLICY: AccessPolicy = { group: 'pro', minTier: 'pro', cost: 1, counted: true }

/** Symbols computed from the channels at once (HK, US, indexes, ETFs: not in the precomputed table). */
const ON_THE_FLY_CONCURRENCY = 6

const Query = z.object({
  codes: z.string({ error: 'codes is required' }).openapi({
    description: 'Comma-separated codes with market prefix: A-share stocks (sh, sz, bj), A-share indexes and ETFs, HK, US stocks and indexes, mixed; pro up to 500, unlimited up to 1,000',
    example: 'sh600519,sz000001,bj830799,hk00700,usAAPL,sh000001',
  }),
  date: DateParam('date').optional().openapi({
    description: `YYYY-MM-DD, from ${HISTORY_START}, not after today; a non-trading day falls back to the nearest earlier session. Blank: A-share stocks at the latest session whose table is built (the previous one during a session), other symbols at their latest (live during a session). Trust each item's \`date\`.`,
    example: '2026-11-20',
  }),
})

const Item = z
  .object({
    code: z.string().openapi({ description: 'The code as requested' }),
    ok: z.boolean().openapi({ description: 'Whether this symbol has a row' }),
    data: TechnicalRowSchema.optional().openapi({ description: 'With ok: the row (the 55 columns of /v1/technical); its `date` is the session it describes' }),
    error: z.string().optional().openapi({ description: 'Without ok: why this symbol has no row (invalid code, not traded that day, upstream failure)' }),
  })
  .openapi('TechnicalBatchItem')

const Response = envelopeSchema('TechnicalBatchEnvelopeBase', z.array(Item).openapi({ description: 'One item per requested symbol, in request order' }))
  .extend({
    date: z.string().optional().openapi({ description: "The session of the A-share stocks' rows (after falling back from a non-trading day); with a blank `date`, other symbols are at their own latest session: each item's `date` says which" }),
    requested: z.number().int().openapi({ description: 'Symbols requested' }),
    returned: z.number().int().openapi({ description: 'Items with a row (the units billed)' }),
    failed: z.number().int().openapi({ description: 'Items without a row' }),
  })
  .openapi('TechnicalBatchEnvelope', {
    example: {
      ok: true, endpoint: 'technical-batch', tier: 'pro', elapsed_ms: 35, source: 'multi', date: '2026-11-20', requested: 2, returned: 1, failed: 1,
      data: [{ code: 'sh600519', ok: true, data: EXAMPLE_ROW }, { code: 'sh999999', ok: false, error: 'sh999999: not traded on 2026-11-20 (suspended, not listed, or no such stock)' }],
    },
  })

const splitCodes = (codes: string) => codes.split(',').map((s) => s.trim()).filter(Boolean)

/** The tier cap, the date's bounds: the 422s (item-level problems are not 422s). */
function checkQuery(q: z.output<typeof Query>, tier: keyof typeof TIER_LIMITS, today: string): void {
  const issues: ValidationIssue[] = []
  const n = splitCodes(q.codes).length
  const cap = TIER_LIMITS[tier].technicalBatchSymbols
  if (n === 0) issues.push(queryIssue('codes', 'codes must name at least one symbol', q.codes))
  else if (n > cap) issues.push(queryIssue('codes', `at most ${cap} symbols a call for tier ${tier}; ${n} were sent`, q.codes, 'too_long'))
  if (q.date && q.date < HISTORY_START) issues.push(queryIssue('date', `date must be ${HISTORY_START} or later (the history starts there)`, q.date))
  if (q.date && q.date > today) issues.push(queryIssue('date', `date ${q.date} is in the future (today is ${today}, Beijing)`, q.date))
  if (issues.length) throw new ValidationError(issues)
}

const route = guardedRoute(
  POLICY,
  {
    method: 'get',
    path: '/v1/technical-batch',
    operationId: 'technicalBatch',
    tags: ['Pro'],
    summary: 'Technical rows of many symbols for one date',
    description:
      'One item per requested symbol, in request order: `{code, ok, data}` with the 55 columns of /v1/technical, or `{code, ok:false, error}` with the reason; ' +
      'top-level `requested`, `returned`, `failed`. A-share stocks come from the table the after-close job precomputes for the whole market each session, point in time ' +
      '(computed from the bars up to `date`, adjusted forward to it: `closePrice` is the close that traded that day). Indexes, ETFs, HK and US symbols are computed from the ' +
      "channel's day bars up to `date`; for ETFs, HK and US that is possible for the latest session only (older rows would carry today's adjustment), and an older date gives those items an error. " +
      'Billed one unit per symbol returned; a call where every item failed is ok:false and not counted. Tier pro (500 symbols) or unlimited (1,000).',
    request: { query: Query },
    responses: {
      200: { description: 'Items (ok:false when no item has a row; not counted)', content: { 'application/json': { schema: Response } } },
      ...COMMON_ERRORS,
    },
  },
  { check: (c, q) => checkQuery(q, c.get('tier'), beijing(c.get('services').now()).date) }
)

type ItemOut = { code: string; ok: true; data: TechnicalRow } | { code: string; ok: false; error: string } | { code: string; ok: true; json: string }

/** An A-share stock's row from the day's table, as the ready JSON text of its item. */
function fromTable(code: string, inst: Instrument, day: TechnicalsDay): ItemOut {
  const json = day.rowJson(inst.code)
  if (!json) return { code, ok: false, error: `${inst.code}: not traded on ${day.date} (suspended, not listed, or no such stock)` }
  return { code, ok: true, json }
}

/** An item as JSON text: table rows are spliced in as they are. */
const itemJson = (x: ItemOut) => ('json' in x ? `{"code":${JSON.stringify(x.code)},"ok":true,"data":${x.json}}` : JSON.stringify(x))

/** Stands for `data` in the envelope until the items' text replaces it (by a function: a caller's `$'` in a code is text, not a pattern). */
const DATA_SLOT = '\u0000items\u0000'

/** A symbol outside the table: its channel bars up to `date`, or all of them (the latest session, live during one). */
async function onTheFly(services: Services, store: R2Bucket, code: string, inst: Instrument, date: string | undefined): Promise<ItemOut> {
  const r = await technicalBars(services, store, inst)
  if (!r.ok) return { code, ok: false, error: `${inst.code}: ${describeAttempts(r.attempts)}` }
  if (date === undefined) date = r.bars.at(-1)?.date ?? ''
  const bars = r.bars.filter((b) => b.date <= date)
  const last = bars.at(-1)
  if (!last || last.date !== date) return { code, ok: false, error: `${inst.code}: not traded on ${date}` }
  const adjusted = inst.kind === 'etf' || inst.kind === 'hk' || inst.kind === 'us'
  if (adjusted && bars.length !== r.bars.length) {
    return { code, ok: false, error: `${inst.code}: rows for ${inst.kind === 'etf' ? 'ETFs' : inst.kind.toUpperCase()} are computed for the latest session only (${r.bars.at(-1)!.date}); older ones would carry later adjustments` }
  }
  const row = technicalRow(toColumns(bars), { code: inst.code, name: r.quote.name || null, priceDecimals: PRICE_DECIMALS[inst.kind] })
  return row ? { code, ok: true, data: row } : { code, ok: false, error: `${inst.code}: no daily bars` }
}

/** GET /v1/technical-batch */
export function registerTechnicalBatch(app: OpenAPIHono<AppEnv>, services: Services) {
  app.openapi(route, async (c) => {
    const q = c.req.valid('query')
    const codes = splitCodes(q.codes)
    const date = q.date ? tradingDayOnOrBefore(q.date) : await latestTechnicalsDate(c.env.STORE)
    const day = date ? await readTechnicals(c.env.STORE, date) : undefined
    const missing = date ? `the technicals of ${date} are not built (the after-close job builds each session's; the backfill the recent ones)` : 'no technicals table is built yet (run the backfill, or wait for the after-close job)'

    const items: ItemOut[] = new Array(codes.length)
    const later: number[] = []
    codes.forEach((code, i) => {
      const inst = technicalInstrument(code)
      if ('error' in inst) items[i] = { code, ok: false, error: inst.error }
      else if (inst.kind !== 'stock') later.push(i)
      else items[i] = day ? fromTable(code, inst, day) : { code, ok: false, error: missing }
    })
    // Blank date: each of these at its own latest session (today's live bar during a session).
    const asked = q.date ? date : undefined
    await mapLimit(later, ON_THE_FLY_CONCURRENCY, async (i) => {
      items[i] = await onTheFly(services, c.env.STORE, codes[i], technicalInstrument(codes[i]) as Instrument, asked)
    })

    const returned = items.filter((x) => x.ok).length
    const body = {
      ok: returned > 0,
      source: later.length === 0 ? 'store' : 'multi',
      data: DATA_SLOT,
      ...(date ? { date } : {}),
      requested: codes.length,
      returned,
      failed: codes.length - returned,
      ...(returned === 0 ? { code: 'NO_DATA', error: day ? 'no requested symbol has a row' : missing } : {}),
    }
    const answer = JSON.stringify(envelope(c, 'technical-batch', body)).replace(JSON.stringify(DATA_SLOT), () => `[${items.map(itemJson).join(',')}]`)
    recordOutcome(c, { ok: body.ok, rows: returned, units: returned })
    // Typed as the documented body: the text is that object with its items spliced in.
    return c.body(answer, 200, { 'content-type': 'application/json; charset=UTF-8' }) as unknown as ReturnType<typeof c.json<z.output<typeof Response>, 200>>
  })
}
