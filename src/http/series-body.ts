import type { Bar } from '../domain/bar'
import { newestAsOf } from '../domain/instant'
import type { Instrument, InstrumentKind } from '../domain/instrument'
import { toBarRow, type BarRow } from './format'
import type { Attempt } from '../channels/failover'
import { allSaidNothing, describeAttempts } from './outcome'

export type SymbolOutcome =
  | { instrument: Instrument; ok: true; bars: Bar[]; channel: string | null; history?: 'store' | 'channel'; asOf?: string; notice?: string; stale?: true }
  | { instrument: Instrument; ok: false; attempts: Attempt[] }

/**
 * Rows of bars already formatted, by bar object: a pure memo of {@link toBarRow}. The past bars of
 * /v1/quote come from the recent-bars cache as the same objects for up to ten minutes, so each is
 * formatted (five `toFixed` calls) once rather than on every call; a bar the cache lets go takes its
 * row with it.
 */
const ROWS = new WeakMap<Bar, { kind: InstrumentKind; row: BarRow }>()

function rowOf(b: Bar, kind: InstrumentKind): BarRow {
  const known = ROWS.get(b)
  if (known?.kind === kind) return known.row
  const row = toBarRow(b, kind)
  ROWS.set(b, { kind, row })
  return row
}

/**
 * Folds per-symbol outcomes into the envelope body of quote and kline: one symbol → an array of
 * rows newest first; several → a map by code. `ok` when any symbol returned data; `source` is the
 * one channel used, `multi` when they differ, `none` when no upstream was needed.
 */
export function seriesBody(outcomes: SymbolOutcome[], sourcePrefix: string) {
  const single = outcomes.length === 1
  const rows = (o: SymbolOutcome): BarRow[] => (o.ok ? o.bars.map((b) => rowOf(b, o.instrument.kind)).reverse() : [])
  const used = new Set(outcomes.flatMap((o) => (o.ok && o.channel ? [o.channel] : [])))
  const source = used.size === 0 ? 'none' : used.size === 1 ? sourcePrefix + [...used][0] : 'multi'
  const ok = outcomes.some((o) => o.ok)
  const data = single ? rows(outcomes[0]) : Object.fromEntries(outcomes.map((o) => [o.instrument.code, rows(o)]))

  const body: Record<string, unknown> = { ok, source, data }
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
  return body as { ok: boolean; source: string; data: BarRow[] | Record<string, BarRow[]> } & Record<string, unknown>
}
