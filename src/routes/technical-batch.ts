import { z, type OpenAPIHono } from '@hono/zod-openapi'
import { schemaColumns } from '../http/csv-answer'
import { admittedRoute, registerAdmitted } from '../access/route'
import { TIER_LIMITS, type AccessPolicy } from '../access/tiers'
import { HISTORY_START } from '../data/holidays'
import { mapLimit } from '../domain/concurrency'
import { echoed } from '../domain/query-issue'
import { beijing } from '../domain/dates'
import { exchangeInstant, newestAsOf } from '../domain/instant'
import { toColumns } from '../domain/indicators/bars'
import type { TechnicalRow } from '../domain/indicators/columns'
import { technicalRow } from '../domain/indicators/row'
import type { Instrument } from '../domain/instrument'
import { previousTradingDay, tradingDayOnOrBefore } from '../domain/trading-calendar'
import type { AppEnv } from '../http/context'
import { answerBody } from '../http/answer'
import { envelope } from '../http/envelope'
import { PRICE_DECIMALS } from '../http/format'
import { queryIssue, ValidationError, type ValidationIssue } from '../http/validation'
import type { Services } from '../services/types'
import type { TechnicalsDay } from '../store/shapes'
import type { StoreRequest } from '../services/types'
import { ON_DEMAND_BUDGET_MS, onDemandThrough, technicalsOnDemand } from '../jobs/technicals-on-demand'
import { answersLive, liveOutcome } from '../features/technical/live-outcome'
import { LIVE_ITEMS, type LiveItem, type LiveResult } from '../features/technical/live-items'
import { DateParam, futureDateIssue } from './shared/schemas'
import { BuildProgressSchema, COMMON_ERRORS, envelopeSchema, TIME_FORMS } from '../http/envelope-schema'
import { buildingMessage } from '../domain/build-progress'
import { describeAttempts } from '../http/outcome'
import { EXAMPLE_ROW, technicalInstrument, TechnicalRowSchema } from './shared/technical-row'
import { technicalBars } from '../features/technical/bars'
import { respelledItem, steppedItemBytes, technicalItemBytes } from '../features/technical/item-bytes'
import { JsonBytes } from '../http/json-bytes'
import { headThrough, slotOf, spliceBytes, tailAfter } from '../http/json-splice'

/** Pro and above; billed one unit per symbol returned, so the reservation is adjusted at settle. */
const POLICY: AccessPolicy = { group: 'keyed', minTier: 'pro', cost: 1, counted: true }

/** Symbols computed from the channels at once (HK, US, indexes, ETFs: not in the precomputed table). */
const ON_THE_FLY_CONCURRENCY = 6

const Query = z.object({
  codes: z.string({ error: 'codes is required' }).openapi({
    description: 'Comma-separated codes with market prefix: A-share stocks (sh, sz, bj), A-share indexes and ETFs, HK, US stocks and indexes, mixed; pro up to 500, unlimited up to 1,000',
    example: 'sh600519,sz000001,bj830799,hk00700,usAAPL,sh000001',
  }),
  date: DateParam('date').optional().openapi({
    description: `YYYY-MM-DD, from ${HISTORY_START}, not after today; a non-trading day falls back to the nearest earlier session. Blank: every symbol at its latest: during a session (until the day's table is built after the close) A-share stocks get today's live rows, stepped from the previous session's precomputed state with the live quote (a stock's row is shared by every caller for 3 s from its quote's request, one exchange snapshot; its \`as_of\` is its quote's time); a stock not traded today keeps its previous session's row. Trust each item's \`date\`.`,
    example: '2026-11-20',
  }),
})

const Item = z
  .object({
    code: z.string().openapi({ description: 'The code as requested' }),
    ok: z.boolean().openapi({ description: 'Whether this symbol has a row' }),
    data: TechnicalRowSchema.optional().openapi({ description: 'With ok: the row (the 55 columns of /v1/technical); its `date` is the session it describes' }),
    as_of: z.string().optional().openapi({ description: `With a live row (blank \`date\` during a session): the quote time it was computed from, an instant on its exchange's clock (\`2026-11-20T10:30:03+08:00\`; a US row's with its own offset); an A-share row is shared for 3 s after its quote was asked for, so it may be up to that much older than the call. ${TIME_FORMS}.` }),
    error: z.string().optional().openapi({ description: 'Without ok: why this symbol has no row (invalid code, not traded that day, no live quote, upstream failure, or, for a day computed on demand, the call ran out of time before it: ask again)' }),
  })
  .openapi('TechnicalBatchItem')

const Response = envelopeSchema('TechnicalBatchEnvelopeBase', z.array(Item).openapi({ description: 'One item per requested symbol, in request order' }))
  .extend({
    date: z.string().optional().openapi({ description: "The batch's session, a day some item's row has: with `date`, the session asked for (a non-trading day falls back to the session before it), which every item with a row carries; with a blank `date`, each symbol is at its own latest session (each item's `date` says which; a suspended stock keeps its last one) and this is the newest of them. Absent when no item has a row and `date` was blank" }),
    as_of: z.string().optional().openapi({ description: 'With live rows: the newest quote time among them (by the instant, whatever its offset), an instant as the items write it' }),
    requested: z.number().int().openapi({ description: 'Symbols requested' }),
    returned: z.number().int().openapi({ description: 'Items with a row (the units billed)' }),
    failed: z.number().int().openapi({ description: 'Items without a row' }),
    progress: BuildProgressSchema.optional().openapi({ description: 'With code BUILDING: how far the first build, which writes the technicals tables, is' }),
  })
  .openapi('TechnicalBatchEnvelope', {
    example: {
      ok: true, endpoint: 'technical-batch', tier: 'pro', elapsed_ms: 35, source: 'multi', date: '2026-11-20', requested: 2, returned: 1, failed: 1,
      data: [{ code: 'sh600519', ok: true, data: EXAMPLE_ROW }, { code: 'sh999999', ok: false, error: 'sh999999: not traded on 2026-11-20 (suspended, not listed, or no such stock)' }],
    },
  })

const splitCodes = (codes: string) => codes.split(',').map((s) => s.trim()).filter(Boolean)

/** The 422s of every tier: no symbol, a date outside the history (item-level problems are not 422s). */
function checkQuery(q: z.output<typeof Query>, today: string): void {
  const issues: ValidationIssue[] = []
  if (splitCodes(q.codes).length === 0) issues.push(queryIssue('codes', 'codes must name at least one symbol', q.codes))
  if (q.date && q.date < HISTORY_START) issues.push(queryIssue('date', `date must be ${HISTORY_START} or later (the history starts there)`, q.date))
  const future = futureDateIssue('date', q.date, today)
  if (future) issues.push(future)
  if (issues.length) throw new ValidationError(issues)
}

/** The tier's cap on symbols a call (pro 500, unlimited 1,000). */
function checkCap(q: z.output<typeof Query>, tier: keyof typeof TIER_LIMITS): void {
  const n = splitCodes(q.codes).length
  const cap = TIER_LIMITS[tier].technicalBatchSymbols
  if (n > cap) throw new ValidationError([queryIssue('codes', `at most ${cap} symbols a call for tier ${tier}; ${n} were sent`, q.codes, 'too_long')])
}

const route = admittedRoute(
  POLICY,
  {
    method: 'get',
    path: '/v1/technical-batch',
    operationId: 'technicalBatch',
    tags: ['Pro'],
    summary: 'Technical rows of many symbols for one date',
    description:
      'One item per requested symbol, in request order: `{code, ok, data}` with the 55 columns of /v1/technical, or `{code, ok:false, error}` with the reason; ' +
      'top-level `requested`, `returned`, `failed`, and `date`, the session served. A-share stocks come from the table the after-close job precomputes for the whole market each session, point in time ' +
      '(computed from the bars up to `date`, adjusted forward to it: `closePrice` is the close that traded that day). Any older session of the stored history (from ' + HISTORY_START + ') ' +
      "without a table is computed on demand from each stock's stored daily history with the job's own code, so its items are the ones the table would hold, and kept for the next call; " +
      `such a call spends at most some ${ON_DEMAND_BUDGET_MS / 1000} s computing and gives the stocks it did not reach an error item saying to ask again (they are not billed). Indexes, ETFs, HK and US symbols are computed from the ` +
      "channel's day bars up to `date`; for ETFs, HK and US that is possible for the latest session only (older rows would carry today's adjustment), and an older date gives those items an error. " +
      'With a blank `date` during a session, A-share stocks get today\'s live rows (`date` today, `as_of` the quote time), each stepped in constant time from the state the after-close job stored ' +
      "with the previous session's table and one batch of live quotes: the same row /v1/technical computes over the whole history. A stock's live row is shared by every caller for 3 s from " +
      "the request of its quote (the exchanges publish quotes as snapshots every 3 s): a batch asks for quotes only for its stocks without one; the item's `as_of` stays its quote's time. A stock that has not traded today (suspended, before the open) " +
      "keeps its previous session's row with that date; on its ex-date a stock is computed from its whole history (every earlier price is adjusted again); without a live quote it is an error item. " +
      'Billed one unit per symbol returned; a call where every item failed is ok:false and not counted. Tier pro (500 symbols) or unlimited (1,000).',
    request: { query: Query },
    responses: {
      200: { description: 'Items (ok:false when no item has a row; not counted)', content: { 'application/json': { schema: Response } } },
      ...COMMON_ERRORS,
    },
  },
  {
    check: (c, q) => checkQuery(q, beijing(c.get('services').now()).date),
    tierCheck: (c, q) => checkCap(q, c.get('tier')),
    // One line per item that has a row (its 55 columns); a failed item's reason is in the JSON answer.
    csv: { table: (body) => ({ rows: (body.data as { ok: boolean; data?: Record<string, unknown> }[]).flatMap((i) => (i.ok && i.data ? [i.data] : [])), columns: schemaColumns(TechnicalRowSchema) }) },
  }
)

type ItemOut =
  | { code: string; ok: true; data: TechnicalRow; as_of?: string }
  | { code: string; ok: false; error: string }
  | { code: string; ok: true; json: string; date: string }
  | { code: string; ok: true; bytes: Uint8Array; date: string; as_of?: string }

/** An A-share stock's row from the day's table: the item's ready bytes (or the row's JSON text when the code was asked in another spelling). */
function fromTable(code: string, inst: Instrument, day: TechnicalsDay): ItemOut {
  const bytes = code === inst.code ? day.itemBytes(code) : undefined
  if (bytes) return { code, ok: true, bytes, date: day.date }
  const json = day.rowJson(inst.code)
  if (!json) return { code, ok: false, error: `${inst.code}: not traded on ${day.date} (suspended, not listed, or no such stock)` }
  return { code, ok: true, json, date: day.date }
}

const utf8 = new TextEncoder()

/** An item as UTF-8 JSON: table rows are copied in as they are. */
function itemBytes(x: ItemOut): Uint8Array {
  if ('bytes' in x) return x.bytes
  return utf8.encode('json' in x ? `${headThrough({ code: x.code, ok: true }, 'data')}${x.json}${tailAfter({})}` : JSON.stringify(x))
}

/**
 * The answer as one UTF-8 buffer: the envelope's text around `data` (made from the envelope
 * itself), and the items' bytes copied in once each (a 1,000-symbol answer is some 1.1 MB;
 * building it as one string and encoding that costs more than the rest of the call).
 */
function answerBytes(env: Record<string, unknown>, items: readonly ItemOut[]): Uint8Array<ArrayBuffer> {
  const { head, tail } = slotOf(env, 'data')
  return spliceBytes(`${head}[`, items.map(itemBytes), `]${tail}`, 44 /* ',' */)
}

/** A symbol outside the table: its channel bars up to `date`, or all of them (the latest session, live during one). */
async function onTheFly(services: Services, c: StoreRequest, code: string, inst: Instrument, date: string | undefined): Promise<ItemOut> {
  const r = await technicalBars(services, c, inst)
  if (!r.ok) return { code, ok: false, error: `${inst.code}: ${describeAttempts(r.attempts)}` }
  if (date === undefined) date = r.bars.at(-1)?.date ?? ''
  const first = r.bars[0]?.date
  if (first && date < first) return { code, ok: false, error: `${inst.code}: no row before ${first} (its channel serves its last ${r.bars.length} day bars; the stored history covers A-share stocks)` }
  const bars = r.bars.filter((b) => b.date <= date)
  const last = bars.at(-1)
  if (!last || last.date !== date) return { code, ok: false, error: `${inst.code}: not traded on ${date}` }
  const adjusted = inst.kind === 'etf' || inst.kind === 'hk' || inst.kind === 'us'
  if (adjusted && bars.length !== r.bars.length) {
    return { code, ok: false, error: `${inst.code}: rows for ${inst.kind === 'etf' ? 'ETFs' : inst.kind.toUpperCase()} are computed for the latest session only (${r.bars.at(-1)!.date}); older ones would carry later adjustments` }
  }
  const row = technicalRow(toColumns(bars), { code: inst.code, name: r.quote.name || null, priceDecimals: PRICE_DECIMALS[inst.kind] })
  if (!row) return { code, ok: false, error: `${inst.code}: no daily bars` }
  return r.quote.time && r.quote.date === row.date && r.quote.traded ? { code, ok: true, data: row, as_of: exchangeInstant(inst.prefix, r.quote.date, r.quote.time) } : { code, ok: true, data: row }
}

/** A kept live item (src/features/technical/live-items.ts) as this request's item. */
function fromLive(code: string, inst: Instrument, live: LiveItem, day: TechnicalsDay | undefined): ItemOut {
  if (live.kind === 'previous') return day ? fromTable(code, inst, day) : { code, ok: false, error: `${inst.code}: not traded today` }
  return { code, ok: true, bytes: code === inst.code ? live.bytes : respelledItem(live.bytes, inst.code, code), date: live.date, as_of: live.asOf }
}

/**
 * Blank date during a session (src/features/technical/live-outcome.ts): the A-share stocks at `stocks`
 * (indexes into `codes`) get today's rows: kept ones from this quote window (live-items.ts), the
 * rest from the previous session's states and one batch of live quotes; those that need their whole
 * history are returned for the on-the-fly path. `now` is the service clock when the quotes are asked for.
 */
async function liveItems(services: Services, c: StoreRequest, now: number, today: string, day: TechnicalsDay | undefined, codes: string[], stocks: number[], insts: Instrument[], items: ItemOut[]): Promise<number[]> {
  const table = day?.date ?? ''
  const kept = services.caches.of(LIVE_ITEMS)
  const asked: number[] = []
  const waited: Array<[k: number, result: Promise<LiveResult>]> = []
  stocks.forEach((i, k) => {
    const code = insts[k].code
    const live = kept.fresh(code, now, table)
    const other = live ? undefined : kept.pending(code, table)
    if (live) items[i] = fromLive(codes[i], insts[k], live, day)
    else if (other) waited.push([k, other])
    else asked.push(k)
  })
  const full: number[] = []
  /** A stock's result (this call's, or the one another call had for it) as its item. */
  const apply = (k: number, r: LiveResult) => {
    const i = stocks[k]
    if (r.kind === 'full') full.push(i)
    else if (r.kind === 'error') items[i] = { code: codes[i], ok: false, error: r.error }
    else items[i] = fromLive(codes[i], insts[k], r, day)
  }
  if (asked.length) {
    const asking = kept.askingFor(asked.map((k) => insts[k].code), table)
    try {
      const [states, live] = await Promise.all([day ? services.store.states(c, day.date, asked.map((k) => insts[k].code)) : undefined, services.market.liveQuotes(asked.map((k) => insts[k]))])
      const previous = previousTradingDay(today)
      const writer = new JsonBytes(asked.length * 1200) // a live item is some 1.1 KB: one buffer for them all
      for (const k of asked) {
        const inst = insts[k]
        const quote = live.quotes.get(inst.code)?.quote
        const out = liveOutcome(inst, today, quote, states?.state(inst.code), day?.row(inst.code)?.name ?? null, previous)
        let r: LiveResult
        if (out.kind === 'row') r = { kind: 'row', bytes: steppedItemBytes(writer, inst.code, out.state, out.bar, out.id, out.asOf), date: out.bar.date, asOf: out.asOf }
        else r = out
        if (r.kind === 'row' || r.kind === 'previous') kept.keep(inst.code, now, table, r)
        asking.settle(inst.code, r)
        apply(k, r)
      }
    } finally {
      asking.settleRest({ kind: 'full' }) // a call that failed half way: the waiting calls compute those stocks themselves
    }
  }
  for (const [k, r] of await Promise.all(waited.map(async ([k, p]) => [k, await p] as const))) apply(k, r)
  return full
}

/**
 * The A-share stocks of a batch whose day has no table (at `unbuilt` in `codes`): on a date the
 * stored histories reach, computed from them with the job's code (src/jobs/technicals-on-demand.ts),
 * so the items are those the day's table would give; otherwise (blank date before any table, a day
 * after the histories) each is an error item. Returns the reason when the day could not be served.
 */
async function withoutTable(
  store: R2Bucket, latestTable: () => Promise<string | undefined>, date: string | undefined, codes: string[], unbuilt: number[], insts: Instrument[], items: ItemOut[], keep: (write: Promise<unknown>) => void
): Promise<string | undefined> {
  const through = date ? await onDemandThrough(store, latestTable) : undefined
  if (!date || !through || date > through) {
    const error = !date
      ? 'no technicals table is built yet (run the backfill, or wait for the after-close job)'
      : `the technicals of ${date} are not built yet (the after-close job builds each session's after the close${through ? `; the stored histories reach ${through}` : ''})`
    for (const i of unbuilt) items[i] = { code: codes[i], ok: false, error }
    return error
  }
  const { day, errors } = await technicalsOnDemand(store, date, insts.map((x) => x.code), keep)
  unbuilt.forEach((i, k) => {
    const error = errors.get(insts[k].code)
    items[i] = error ? { code: codes[i], ok: false, error } : fromTable(codes[i], insts[k], day)
  })
  return undefined
}

/** The newest `date` among the items' rows (undefined when no item has a row). */
function newestRowDate(items: readonly ItemOut[]): string | undefined {
  let newest: string | undefined
  for (const x of items) {
    if (!x.ok) continue
    const d = 'data' in x ? x.data.date : x.date
    if (d && (!newest || d > newest)) newest = d
  }
  return newest
}

/**
 * The answer's headers. No Content-Encoding of our own: Cloudflare's edge compresses JSON for the
 * clients that accept it, and the Accept-Encoding a Worker sees is the edge's, not the client's
 * (locally, `wrangler dev` sent gzip to a plain `curl` that had not asked for it).
 */
const ANSWER_HEADERS = { 'content-type': 'application/json; charset=UTF-8' }

/** GET /v1/technical-batch */
export function registerTechnicalBatch(app: OpenAPIHono<AppEnv>, services: Services) {
  registerAdmitted(app, route, async (c) => {
    const q = c.req.valid('query')
    const codes = splitCodes(q.codes)
    const today = beijing(services.now()).date
    const latest = q.date ? undefined : await services.store.latestTechnicalsDate(c)
    const live = !q.date && answersLive(today, latest)
    const tableDate = q.date ? tradingDayOnOrBefore(q.date) : latest
    const day = tableDate ? await services.store.technicals(c, tableDate) : undefined

    const items: ItemOut[] = new Array(codes.length)
    const later: number[] = []
    const stocks: number[] = []
    const stockInsts: Instrument[] = []
    const unbuilt: number[] = []
    const unbuiltInsts: Instrument[] = []
    codes.forEach((code, i) => {
      const inst = technicalInstrument(code)
      // Not a code: echoed as every input is, a bounded excerpt (src/domain/query-issue.ts).
      if ('error' in inst) items[i] = { code: echoed(code), ok: false, error: inst.error }
      else if (inst.kind !== 'stock') later.push(i)
      else if (live) {
        stocks.push(i)
        stockInsts.push(inst)
      } else if (day) items[i] = fromTable(code, inst, day)
      else {
        unbuilt.push(i)
        unbuiltInsts.push(inst)
      }
    })
    // A dated batch on a day without a table: its stocks from the stored histories.
    const missing = unbuilt.length ? await withoutTable(services.store.bucket(c), () => services.store.latestTechnicalsDate(c), q.date ? tableDate : undefined, codes, unbuilt, unbuiltInsts, items, (p) => c.executionCtx.waitUntil(p)) : undefined
    const askedAt = services.now()
    const full = stocks.length ? await liveItems(services, c, askedAt, today, day, codes, stocks, stockInsts, items) : []
    later.push(...full)
    // Blank date: each of these at its own latest session (today's live bar during a session).
    const asked = q.date ? tableDate : undefined
    await mapLimit(later, ON_THE_FLY_CONCURRENCY, async (i) => {
      items[i] = await onTheFly(services, c, codes[i], technicalInstrument(codes[i]) as Instrument, asked)
    })
    // A live stock computed from its whole history (an ex-date today) is kept for the quote window too.
    const fullWriter = new JsonBytes(full.length * 1200)
    for (const i of full) {
      const x = items[i]
      if (!('data' in x)) continue
      const inst = technicalInstrument(codes[i]) as Instrument
      services.caches.of(LIVE_ITEMS).keep(inst.code, askedAt, day?.date ?? '', { kind: 'row', bytes: technicalItemBytes(fullWriter, inst.code, x.data, PRICE_DECIMALS[inst.kind], x.as_of), date: x.data.date, asOf: x.as_of })
    }

    const returned = items.filter((x) => x.ok).length
    // Nothing to serve while the first build runs: say how far it is, as kline-full does, rather than "run the backfill".
    const build = returned === 0 && unbuilt.length ? await services.store.buildUnderWay(c) : undefined
    const building = build ? buildingMessage(`the technicals table${tableDate ? ` of ${tableDate}` : ''}`, build.progress) : undefined
    // The items that had no table say the same, not the reason given when no build runs.
    if (building && missing) for (const i of unbuilt) if (!items[i].ok && 'error' in items[i] && items[i].error === missing) items[i] = { code: codes[i], ok: false, error: building }
    // The day of the batch: the session asked for (after a non-trading day's fallback), which every
    // item with a row carries; blank, the newest session among the items' rows. Never a day no item has.
    const date = q.date ? tableDate : newestRowDate(items)
    const asOf = live ? newestAsOf(items.flatMap((x) => ('as_of' in x && x.as_of ? [x.as_of] : []))) : undefined
    const body = {
      ok: returned > 0,
      source: later.length === 0 && stocks.length === 0 ? 'store' : 'multi',
      ...(asOf ? { as_of: asOf } : {}),
      data: null,
      ...(date ? { date } : {}),
      requested: codes.length,
      returned,
      failed: codes.length - returned,
      ...(build
        ? { code: 'BUILDING' as const, error: building, progress: build.progress }
        : returned === 0 ? { code: 'NO_DATA' as const, error: missing ?? 'no requested symbol has a row' } : {}),
    }
    const bytes = answerBytes(envelope(c, 'technical-batch', body), items)
    // Typed as the documented body: the text is that object with its items spliced in.
    return answerBody(c, bytes, { ok: body.ok, rows: returned, units: returned }, ANSWER_HEADERS) as unknown as ReturnType<typeof c.json<z.output<typeof Response>, 200>>
  })
}
