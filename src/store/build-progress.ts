/**
 * How far a history build is (the backfill that `npm start` runs on a first start, or
 * `npm run backfill`), read from its record in R2 (src/store/backfill-record.ts). While it runs,
 * /v1/kline-full and /v1/market-kline answer `ok:false` with code `BUILDING` and this progress for
 * what the build will write, instead of a bare NO_DATA (`services.store.buildUnderWay`).
 */
import { reformInstant } from '../domain/instant'
import { readBackfillStatus, type BackfillStatus } from './backfill-record'
import type { Building } from './shapes'

/** The build under way, or undefined when none runs (never started, or done). */
export async function buildUnderWay(bucket: R2Bucket): Promise<Building | undefined> {
  const status = await readBackfillStatus(bucket)
  if (!status || status.state.phase === 'done') return undefined
  return building(status)
}

/** The progress of an unfinished backfill (pure). */
export function building({ state, done }: BackfillStatus): Building {
  const stocksDone = Math.min(state.codes.length, done * state.chunkSize)
  const monthsDone = state.finishedMonths.length
  const tableDays = state.tableDays?.length ?? 0
  const tableDaysDone = state.finishedTableDays?.length ?? 0
  // Chunks, months and table days as equal steps: each is one call of about the same length.
  const steps = state.chunks + state.months.length + tableDays
  const percent = steps ? Math.min(99, Math.floor(((done + monthsDone + tableDaysDone) / steps) * 100)) : 0
  const codes = new Set(state.codes)
  return {
    progress: {
      phase: state.phase === 'chunks' ? 'histories' : monthsDone < state.months.length ? 'day_blobs' : 'day_tables',
      percent,
      stocks_done: stocksDone,
      stocks_total: state.codes.length,
      months_done: monthsDone,
      months_total: state.months.length,
      from: state.from,
      to: state.to,
      // Kept as UTC ISO in the record; answered in the one form of an instant.
      started_at: reformInstant(state.startedAt),
    },
    buildsHistoryOf: (code) => codes.has(code),
    buildsDay: (date) => date >= state.from && date <= state.to,
  }
}
