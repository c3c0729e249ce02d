/**
 * The row /v1/technical answers with. An A-share stock's row is stepped from its stored indicator
 * state with the quote's bar where that gives the whole-history row (stepped-row.ts): some 5 µs of
 * work and one state read (the state's shard is kept parsed per isolate) instead of reading the
 * stock's whole stored history (~160 KB) and computing over its ten years of bars. Otherwise, and
 * for every other kind, the row is computed over the bars of bars.ts. Either way the same quote
 * series is fetched first (the quote and the channel's last 10 day bars, from one channel), so the
 * channel, the quote and the failures are those of the whole-history computation.
 */
import type { Attempt } from '../../channels/failover'
import type { QuoteResult, Services, StoreRequest } from '../../services/types'
import type { Quote } from '../../domain/bar'
import { beijing } from '../../domain/dates'
import { toColumns } from '../../domain/indicators/bars'
import type { TechnicalRow } from '../../domain/indicators/columns'
import { technicalRow } from '../../domain/indicators/row'
import type { StepState } from '../../domain/indicators/step-state'
import type { Instrument } from '../../domain/instrument'
import { tradingDayOnOrBefore } from '../../domain/trading-calendar'
import { PRICE_DECIMALS } from '../../http/format'
import { RECENT_FOR_HISTORY, technicalBars } from './bars'
import { stateSessionFor, steppedRow } from './stepped-row'

export type OneRow =
  | {
      ok: true
      /** Undefined when there is no daily bar to compute over. */
      row: TechnicalRow | undefined
      quote: Quote
      channel: string
      /** `store`: the stock's whole stored history (stepped to, or computed over); `channel`: the channel's day bars. */
      history: 'store' | 'channel'
      /** Daily bars the row stands for. */
      bars: number
    }
  | { ok: false; attempts: Attempt[] }

/** The stored state of `code` after `date`; undefined without one (or when the store cannot be read: the whole history decides). */
const readState = (services: Services, c: StoreRequest, date: string, code: string): Promise<StepState | undefined> =>
  services.store.states(c, date, [code]).then((s) => s?.state(code), () => undefined)

/** The row of `inst` as /v1/technical serves it now, with what the envelope says about it. */
export async function technicalOfOne(services: Services, c: StoreRequest, inst: Instrument): Promise<OneRow> {
  let recent: QuoteResult | undefined
  if (inst.kind === 'stock') {
    // The state is read beside the quote for the session the quote is most likely of (the clock's
    // latest session); a quote of another (before the open: the session before) reads its own.
    const likely = stateSessionFor(tradingDayOnOrBefore(beijing(services.now()).date))
    const [series, state] = await Promise.all([services.market.quoteSeries(inst, RECENT_FOR_HISTORY, 'channel'), readState(services, c, likely, inst.code)])
    recent = series
    if (series.ok && series.quote.traded) {
      const session = stateSessionFor(series.quote.date)
      const stepped = steppedRow(inst, series, session === likely ? state : await readState(services, c, session, inst.code))
      if (stepped) return { ok: true, row: stepped.row, quote: series.quote, channel: series.channel, history: 'store', bars: stepped.bars }
    }
  }
  const r = await technicalBars(services, c, inst, recent)
  if (!r.ok) return r
  const row = technicalRow(toColumns(r.bars), { code: inst.code, name: r.quote.name || null, priceDecimals: PRICE_DECIMALS[inst.kind] })
  return { ok: true, row, quote: r.quote, channel: r.channel, history: r.history, bars: r.bars.length }
}
