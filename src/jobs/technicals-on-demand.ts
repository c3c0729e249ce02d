/**
 * The technicals of a trading day whose table the jobs did not build (the after-close job builds
 * each new session's, the backfill the last 20 of its range), for /v1/technical-batch?date= on any
 * session of the stored history. Each requested stock's row is computed from its stored history
 * with the job's own code (barsBetween, stockDays, tableRow, technicalsOf, technicalsDay), so an
 * item is the same, byte for byte, whether the job's table or this served it.
 *
 * Per stock, not the whole day: a row costs reading and parsing the stock's history (some 160 KB)
 * and one pass of the indicators over its bars up to the date (some 8 ms for ten years of bars,
 * measured in workerd), so the whole market's 5,500 rows would be some 50 s of CPU, past what one
 * request may spend, while a batch asks for at most 1,000 stocks. The rows computed are kept in R2
 * under {@link technicalsOnDemandKey} (the table's form, plus the codes that had no bar that day), so
 * a date asked again costs one read, and a call that could not finish leaves its work for the next.
 * Two calls adding rows at once may each write without the other's: those rows are computed again
 * later, never wrong.
 */
import { mapLimit } from '../domain/concurrency'
import { STOCK_DAY_COLUMNS, stockDays } from '../domain/stock-days'
import { readHistory } from '../store/history'
import { technicalsOnDemandKey } from '../store/keys'
import { readManifest, readUniverse } from '../store/meta'
import { getJson, putJson } from '../store/r2-json'
import { TECHNICALS_VERSION, technicalsDay, technicalsOf, type StoredTechnicals } from '../store/technicals'
import type { TechnicalsDay } from '../store/shapes'
import { barsBetween, tableRow } from './day-tables'

/** Wall time a call spends starting rows before it leaves the rest for the next call (the request deadline is 15 s). */
export const ON_DEMAND_BUDGET_MS = 8_000

/** Histories read at once. */
const CONCURRENCY = 6

/** What is kept of a day computed on demand: the table's form, and the stocks whose history has no bar that day. */
interface OnDemandRows extends StoredTechnicals {
  absent: string[]
}

const COLUMNS = STOCK_DAY_COLUMNS.join()
const sameColumns = (t: OnDemandRows) => t.v === TECHNICALS_VERSION && t.columns.join() === COLUMNS && Array.isArray(t.absent)

/**
 * The newest day every stored history has its bars through (the manifest's `historyThrough`, or
 * the newest table, which the jobs write after appending the histories it comes from). A later day
 * cannot be computed from the store: its bars are not in it yet. `latestTable` reads the newest
 * table's date (`services.store.latestTechnicalsDate`).
 */
export async function onDemandThrough(bucket: R2Bucket, latestTable: () => Promise<string | undefined>): Promise<string | undefined> {
  const [manifest, latest] = await Promise.all([readManifest(bucket), latestTable()])
  const through = manifest?.historyThrough
  return !through ? latest : !latest ? through : through > latest ? through : latest
}

export interface OnDemandDay {
  /** The rows of the day known so far (the requested stocks traded that day among them). */
  day: TechnicalsDay
  /** Requested stocks without a row that are not known to be untraded: why (the call ran out of time, a damaged history). */
  errors: ReadonlyMap<string, string>
}

/**
 * The rows of `codes` (canonical A-share stock codes) on the trading day `date`, computed from
 * their stored histories where R2 does not have them yet; `keep` receives the write of what was
 * added (the route's waitUntil). A stock without a history, or without a bar that day, has no row,
 * as in the job's table.
 */
export async function technicalsOnDemand(
  bucket: R2Bucket, date: string, codes: readonly string[], keep: (write: Promise<unknown>) => void, budgetMs = ON_DEMAND_BUDGET_MS
): Promise<OnDemandDay> {
  const started = Date.now()
  const stored = await getJson<OnDemandRows>(bucket, technicalsOnDemandKey(date))
  // Rows kept by a version with other columns are computed again.
  const known: OnDemandRows = stored && sameColumns(stored) ? stored : { ...technicalsOf(date, [], {}), absent: [] }
  const absent = new Set(known.absent)
  const missing = [...new Set(codes)].filter((c) => !Object.hasOwn(known.rows, c) && !absent.has(c))
  const errors = new Map<string, string>()
  if (missing.length === 0) return { day: technicalsDay(known), errors }

  const rows: Array<Array<string | number | null>> = []
  const untraded: string[] = []
  await mapLimit(missing, CONCURRENCY, async (code) => {
    if (Date.now() - started > budgetMs) {
      errors.set(code, `${code}: its row of ${date} is computed on demand from the stored history, and this call ran out of time before it; ask again (the rows computed so far are kept)`)
      return
    }
    const h = await readHistory(bucket, code).catch(() => null)
    if (h === null) errors.set(code, `${code}: its stored history could not be read`)
    if (!h) return // no history: no row, as in the job's table (not kept: a backfill may add the stock)
    const [first, last] = barsBetween(h, date, date)
    if (last < first) untraded.push(code)
    else rows.push(tableRow(code, stockDays(h, first, last)[0]))
  })
  if (rows.length === 0 && untraded.length === 0) return { day: technicalsDay(known), errors }
  const names = (await readUniverse(bucket))?.names ?? {}
  const added = technicalsOf(date, rows, names)
  const merged: OnDemandRows = { ...known, rows: { ...known.rows, ...added.rows }, absent: [...known.absent, ...untraded] }
  keep(putJson(bucket, technicalsOnDemandKey(date), merged))
  return { day: technicalsDay(merged), errors }
}
