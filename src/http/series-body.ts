import type { Bar } from '../domain/bar'
import { newestAsOf } from '../domain/instant'
import type { Instrument, InstrumentKind } from '../domain/instrument'
import type { Context } from 'hono'
import type { AppEnv } from './context'
import { answerWithDataText } from './answer'
import { toBarRow, type BarRow } from './format'
import type { Attempt } from '../channels/failover'
import { allSaidNothing, describeAttempts } from './outcome'

export type SymbolOutcome =
  | { instrument: Instrument; ok: true; bars: Bar[]; channel: string | null; history?: 'store' | 'channel'; asOf?: string; notice?: string; stale?: true }
  | { instrument: Instrument; ok: false; attempts: Attempt[] }

/**
 * Each bar's row as JSON text, by bar object: a pure memo of `JSON.stringify(toBarRow(b, kind))`.
 * The past bars of /v1/quote come from the recent-bars cache as the same objects for up to ten
 * minutes, so each is formatted (five `toFixed` calls) and written once rather than on every call
 * (writing a quote's 4.6 KB answer was mostly its 31 rows); a bar the cache lets go takes its text
 * with it. Only the text is kept, not the row object: it is half the memory, and all a route needs.
 */
const ROW_TEXT = new WeakMap<Bar, { kind: InstrumentKind; text: string }>()

function rowText(b: Bar, kind: InstrumentKind): string {
  const known = ROW_TEXT.get(b)
  if (known?.kind === kind) return known.text
  const text = JSON.stringify(toBarRow(b, kind))
  ROW_TEXT.set(b, { kind, text })
  return text
}

/** `JSON.stringify` of a symbol's rows, newest first. */
function rowsText(bars: readonly Bar[], kind: InstrumentKind): string {
  let out = ''
  for (let i = bars.length - 1; i >= 0; i--) out += `${out ? ',' : ''}${rowText(bars[i], kind)}`
  return `[${out}]`
}

/**
 * Folds per-symbol outcomes into the envelope body of quote and kline: one symbol → an array of
 * rows newest first; several → a map by code. `ok` when any symbol returned data; `source` is the
 * one channel used, `multi` when they differ, `none` when no upstream was needed.
 */
export function seriesBody(outcomes: SymbolOutcome[], sourcePrefix: string): SeriesBody {
  const single = outcomes.length === 1
  const text = (o: SymbolOutcome): string => (o.ok ? rowsText(o.bars, o.instrument.kind) : '[]')
  const used = new Set(outcomes.flatMap((o) => (o.ok && o.channel ? [o.channel] : [])))
  const source = used.size === 0 ? 'none' : used.size === 1 ? sourcePrefix + [...used][0] : 'multi'
  const ok = outcomes.some((o) => o.ok)
  // Several symbols as `Object.fromEntries` writes them: codes are never integer-like keys, so they keep their order (a repeated one its first place, its last value).
  const byCode = single ? undefined : new Map(outcomes.map((o) => [o.instrument.code, o]))
  const dataText = byCode ? `{${[...byCode].map(([code, o]) => `${JSON.stringify(code)}:${text(o)}`).join(',')}}` : text(outcomes[0])
  let rows = 0
  for (const o of byCode?.values() ?? outcomes) if (o.ok) rows += o.bars.length

  const body: Record<string, unknown> = { ok, source, data: null }
  const asOf = newestAsOf(outcomes.flatMap((o) => (o.ok && o.asOf ? [o.asOf] : [])))
  if (asOf) body.as_of = asOf
  const notice = outcomes.find((o) => o.ok && o.notice)
  if (notice?.ok) body.notice = notice.notice
  if (outcomes.some((o) => o.ok && o.stale)) body.stale = true
  const histories = new Set(outcomes.flatMap((o) => (o.ok && o.history ? [o.history] : [])))
  if (histories.size) body.history = histories.size === 1 ? [...histories][0] : 'multi'
  const failed = outcomes.filter((o): o is Extract<SymbolOutcome, { ok: false }> => !o.ok)
  if (!ok) {
    body.code = failed.every((f) => allSaidNothing(f.attempts)) ? 'NO_DATA' : 'UPSTREAM_UNAVAILABLE'
    body.error = single
      ? `${outcomes[0].instrument.code}: ${describeAttempts(failed[0].attempts)}`
      : 'no symbol returned data; see errors'
  }
  if (!single && failed.length) body.errors = Object.fromEntries(failed.map((f) => [f.instrument.code, describeAttempts(f.attempts)]))
  if (!single && source === 'multi') {
    body.sources = Object.fromEntries(outcomes.flatMap((o) => (o.ok && o.channel ? [[o.instrument.code, sourcePrefix + o.channel]] : [])))
  }
  return { body: body as SeriesBody['body'], dataText, rows }
}

/** An answer body whose `data` is written apart: `dataText` is its JSON text (one symbol's rows, or a map of them by code). */
export interface SeriesBody {
  body: { ok: boolean; source: string; data: null } & Record<string, unknown>
  dataText: string
  /** Rows in `dataText`. */
  rows: number
}

/** The answer of quote and kline: {@link seriesBody} in its JSON envelope, the same bytes `JSON.stringify` writes. */
export function answerSeries(c: Context<AppEnv>, endpoint: string, outcomes: SymbolOutcome[], sourcePrefix: string) {
  const { body, dataText, rows } = seriesBody(outcomes, sourcePrefix)
  return answerWithDataText<BarRow[] | Record<string, BarRow[]>>(c, endpoint, body, dataText, { rows })
}
