/**
 * The day's precomputed tables, built from the stock-day rows the history jobs stage while they
 * hold each stock's history in hand (so no job reads 5,500 histories a second time):
 *
 *   technicals/<date>.json     every stock's technical columns and day factors (point in time)
 *   factors/hs/<date>.json     the A-share screening factors of the date, as columns
 *   technicals/<date>.states/  every stock's indicator state after the date, in shards by code (live rows step from them)
 *
 * Staged rows are lines `<date>\t["<code>", v1, v2, …]` (values in STOCK_DAY_COLUMNS order), the
 * same line format the backfill stages market rows in.
 */
import { factorByName, factorNames } from '../data/factors'
import type { ShareProfile } from '../domain/fundamental-factors'
import { encodeState, nextState } from '../domain/indicators/step'
import type { StepState } from '../domain/indicators/step-state'
import { STOCK_DAY_COLUMNS, stepStateThrough, stockDays, type StockDay } from '../domain/stock-days'
import { writeFactorTable, type StoredFactorTable } from '../store/factor-table'
import { indexOnOrAfter, numDate } from '../store/history'
import type { History, Universe } from '../store/shapes'
import { technicalsOf, writeTechnicals, type StoredTechnicals } from '../store/technicals'
import { StatesWriter, writeStates } from '../store/state-shards'
import { fundamentalColumns } from './fundamental-factors'
import { nextTurn } from './pace'
import type { HistorySource } from './source'

/**
 * Staged lines of the rows of `h` for the dates in [from, to], then a line with the stock's
 * indicator state after the last of them, `<date>\t#<code>\t<state JSON>` (only the newest day's
 * states are written: live rows step from the latest session).
 */
export function stagedDayRows(h: History, from: string, to: string, prior?: StepState): string[] {
  const [first, last] = barsBetween(h, from, to)
  if (last < first) return []
  const lines = stockDays(h, first, last).map((r) => `${r.date}\t${JSON.stringify(tableRow(h.code, r))}`)
  lines.push(`${numDate(h.t[last])}\t${STATE_MARK}${h.code}\t${encodeState(stateAfter(h, last, prior))}`)
  return lines
}

/** The indexes of the first and last bars of `h` dated in [from, to] (last < first when there are none). */
export function barsBetween(h: History, from: string, to: string): [first: number, last: number] {
  const first = indexOnOrAfter(h, from)
  let last = first - 1
  while (last + 1 < h.t.length && numDate(h.t[last + 1]) <= to) last++
  return [first, last]
}

/** A stock's row in a day's technicals table before its name is put in: `[code, ...values in STOCK_DAY_COLUMNS order]`. */
export const tableRow = (code: string, day: StockDay): Array<string | number | null> => [code, ...day.values]

/**
 * The state after bar `last`: `prior` (the state after the bar before, as stored the session
 * before) stepped with the bar, in constant time, when it fits: it is of that bar, its last close
 * is that bar's, and bar `last` is not an ex-date (which re-adjusts every earlier price).
 * Otherwise the whole history is stepped through (some 30 ms for ten years of bars).
 */
export function stateAfter(h: History, last: number, prior?: StepState): StepState {
  const date = numDate(h.t[last])
  const fits = prior && last > 0 && prior.i === last && prior.date === numDate(h.t[last - 1]) && prior.c.at(-1) === h.c[last - 1] && !h.act.some(([ex]) => ex === date)
  if (!fits) return stepStateThrough(h, last)
  return nextState(prior, { date, open: h.o[last], high: h.h[last], low: h.l[last], close: h.c[last], volume: h.vol[last] })
}

/** Starts a staged state line (after its date); a row line starts with `[`. */
const STATE_MARK = '#'

/** Where each hs factor comes from in a stock-day row, for the factors the rows carry. */
const FROM_ROW: Record<string, string> = { ClosePrice: 'closePrice' }

/**
 * The hs factor table of a day from its technicals table: every catalogue factor the stock-day
 * rows carry. Factors from other sources (fundamentals, share counts) are absent until a job adds
 * them, and /v1/screen says so rather than matching nothing.
 */
function factorTableOf(t: StoredTechnicals, builtAt: string): StoredFactorTable {
  const codes = Object.keys(t.rows).sort()
  const columns: StoredFactorTable['columns'] = {}
  for (const name of factorNames('hs')) {
    const from = FROM_ROW[name] ?? name
    const i = t.columns.indexOf(from)
    if (i < 0 || !factorByName(name)) continue
    columns[name] = codes.map((c) => {
      const v = t.rows[c][i + 1]
      return typeof v === 'number' ? v : null
    })
  }
  return { market: 'hs', date: t.date, built_at: builtAt, codes, names: codes.map((c) => String(t.rows[c][0] ?? '')), columns }
}

/** Where the fundamentals and size factors come from: the statements, and the list's share counts by code. */
export interface FundamentalsInput {
  source: Pick<HistorySource, 'statements'>
  profiles: Universe['profiles']
}

/**
 * Adds the fundamentals and size factors of the table's date (src/jobs/fundamental-factors.ts)
 * to `table`, from its own ClosePrice and Volume columns; returns the upstream requests spent.
 */
async function addFundamentals(table: StoredFactorTable, input: FundamentalsInput): Promise<number> {
  const profiles: Record<string, ShareProfile> = {}
  for (const [code, [totalShares, floatShares, listDate]] of Object.entries(input.profiles ?? {})) profiles[code] = { totalShares, floatShares, listDate }
  const { columns, requests } = await fundamentalColumns(input.source, {
    date: table.date,
    codes: table.codes,
    close: table.columns.ClosePrice ?? [],
    volume: table.columns.Volume ?? [],
    profiles,
  })
  for (const [name, column] of Object.entries(columns)) if (factorByName(name)?.sources.hs) table.columns[name] = column
  return requests
}

/**
 * Writes both tables of `date` from its staged rows; returns what was written. With
 * `fundamentals`, they are fetched first: when that fails nothing is written, so the job's next
 * run tries the day again.
 */
export async function writeDayTables(
  bucket: R2Bucket, date: string, rows: Iterable<Array<string | number | null>>, names: Record<string, string>, now: number,
  fundamentals?: FundamentalsInput, states?: StatesWriter | ReadonlyMap<string, string>
) {
  const tech = technicalsOf(date, rows, names)
  await nextTurn()
  const factors = factorTableOf(tech, new Date(now).toISOString())
  const requests = fundamentals ? await addFundamentals(factors, fundamentals) : 0
  // The states first: a table whose states are missing would send live rows to the slow path.
  const written = states instanceof StatesWriter ? await states.finish() : states?.size ? await writeStates(bucket, date, states) : undefined
  await nextTurn()
  const bytes = await writeTechnicals(bucket, tech)
  await nextTurn()
  const factorBytes = await writeFactorTable(bucket, factors)
  return { rows: factors.codes.length, bytes, factors: Object.keys(factors.columns).length, factorBytes, requests, states: written?.rows ?? 0, stateBytes: written?.bytes ?? 0, stateShards: written?.shards ?? 0 }
}

/** Parses staged lines of one date into rows keyed by code (a later line for a code wins). */
export function collectRows(lines: Iterable<string>, into = new Map<string, Array<string | number | null>>()) {
  for (const line of lines) {
    if (line.startsWith(STATE_MARK)) continue
    const row = JSON.parse(line) as Array<string | number | null>
    if (row.length === STOCK_DAY_COLUMNS.length + 1) into.set(String(row[0]), row)
  }
  return into
}

/** Adds the state lines among staged lines of one date (date stripped) to `writer`, as it reads them. */
export async function addStates(lines: Iterable<string>, writer: StatesWriter): Promise<void> {
  for (const line of lines) {
    if (!line.startsWith(STATE_MARK)) continue
    const tab = line.indexOf('\t')
    if (tab > 1) await writer.add(line.slice(1, tab), line.slice(tab + 1))
  }
}

/** Collects the state lines among staged lines of one date (date stripped) as code → state JSON. */
export function collectStates(lines: Iterable<string>, into = new Map<string, string>()) {
  for (const line of lines) {
    if (!line.startsWith(STATE_MARK)) continue
    const tab = line.indexOf('\t')
    if (tab > 1) into.set(line.slice(1, tab), line.slice(tab + 1))
  }
  return into
}
