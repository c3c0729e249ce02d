/**
 * How far a history build is (the backfill that `npm start` runs on a first start, or
 * `npm run backfill`), read from its record in R2 (`meta/backfill.json` and the chunk markers).
 * While it runs, /v1/kline-full and /v1/market-kline answer `ok:false` with code `BUILDING` and
 * this progress for what the build will write, instead of a bare NO_DATA.
 */
import { backfillStatusIn, type BackfillStatus } from './backfill'

/** The progress as the data routes send it (`progress` in their envelope). */
export interface BuildProgress {
  phase: 'histories' | 'day_blobs' | 'day_tables'
  percent: number
  stocks_done: number
  stocks_total: number
  months_done: number
  months_total: number
  from: string
  to: string
  started_at: string
}

/** A build under way, with what it covers. */
export interface Building {
  progress: BuildProgress
  /** The build will write this stock's history. */
  buildsHistoryOf(code: string): boolean
  /** The build will write this day's market-kline. */
  buildsDay(date: string): boolean
}

/** The build under way, or undefined when none runs (never started, or done). */
export async function buildUnderWay(bucket: R2Bucket): Promise<Building | undefined> {
  const status = await backfillStatusIn(bucket)
  if (!status || status.state.phase === 'done') return undefined
  return building(status)
}

/** The progress of an unfinished backfill (pure, for tests and the routes). */
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
      started_at: state.startedAt,
    },
    buildsHistoryOf: (code) => codes.has(code),
    buildsDay: (date) => date >= state.from && date <= state.to,
  }
}

/** The `error` text of a BUILDING answer. */
export function buildingMessage(what: string, p: BuildProgress): string {
  const step =
    p.phase === 'histories' ? `histories ${p.stocks_done} of ${p.stocks_total} stocks` : p.phase === 'day_blobs' ? `day blobs, ${p.months_done} of ${p.months_total} months` : 'technicals and factor tables of the last days'
  return `${what} is being built (${p.percent}% done: ${step}; started ${p.started_at}); try again in a few minutes`
}
