/**
 * The day's fundamentals and size factors (src/domain/fundamental-factors.ts) for every stock of
 * a factor table, point in time. The statements come in bulk, one report period at a time for the
 * whole market ({@link HistorySource.statements}); share counts and listing dates come from the
 * market list the job already took (the universe's `profiles`).
 *
 * Subrequests per table day, 5,572 stocks: 8 report periods; income and cash flow for each,
 * the balance sheet and the 业绩报表 (for BPS) for the 4 latest-report candidates; 12 pages of 500
 * rows per report and period: (8 × 2 + 4 × 2) × 12 = 288 upstream requests, plus the job's own R2
 * calls. The Workers limit is 1,000 per invocation.
 */
import { FUNDAMENTAL_FACTORS, fundamentalFactors, periodsToFetch, type PeriodFigures, type ShareProfile } from '../domain/fundamental-factors'
import { roundTo } from '../domain/indicators/row'
import { getJson, putJson } from '../store/r2-json'
import type { HistorySource } from './source'

/** Statement pages of this many rows: what one subrequest brings back. */
const STATEMENT_PAGE_ROWS = 500

/** Factors stored as whole numbers (share counts, days); the rest to 4 decimals. */
const WHOLE = new Set<string>(['TotalShares', 'FloatShares', 'ListDays'])

/** Inputs per stock of the table, in the table's code order. */
export interface FactorDay {
  date: string
  codes: readonly string[]
  close: ReadonlyArray<number | null>
  volume: ReadonlyArray<number | null>
  profiles: Readonly<Record<string, ShareProfile>>
}

/**
 * The columns of {@link FUNDAMENTAL_FACTORS} for `day`, with the upstream requests spent. Any
 * statement fetch that fails throws: a table is not written with half the market's fundamentals.
 */
export async function fundamentalColumns(source: Pick<HistorySource, 'statements'>, day: FactorDay): Promise<{ columns: Record<string, Array<number | null>>; requests: number }> {
  const byPeriod = new Map<string, Map<string, PeriodFigures>>()
  let requests = 0
  for (const { period, balance } of periodsToFetch(day.date)) {
    const got = await source.statements(period, balance)
    byPeriod.set(period, got)
    requests += (balance ? 4 : 2) * Math.max(1, Math.ceil(got.size / STATEMENT_PAGE_ROWS))
  }
  const columns: Record<string, Array<number | null>> = Object.fromEntries(FUNDAMENTAL_FACTORS.map((f) => [f, []]))
  day.codes.forEach((code, i) => {
    const values = fundamentalFactors((p) => byPeriod.get(p)?.get(code), { date: day.date, close: day.close[i], volume: day.volume[i], shares: day.profiles[code] })
    for (const f of FUNDAMENTAL_FACTORS) {
      const v = values[f]
      columns[f].push(v === null || !Number.isFinite(v) ? null : WHOLE.has(f) ? Math.round(v) : roundTo(v, 4))
    }
  })
  return { columns, requests }
}

/**
 * `source`'s statements with each period fetched once and kept under `prefix` in R2 for the calls
 * after it: the backfill's table days (one call each) ask for the same report periods, so only
 * the first spends the 288 upstream requests and parses their pages. What a call does with them
 * is unchanged: each row keeps its notice date, and each day takes only what was published by it.
 */
export function keptStatements(bucket: R2Bucket, prefix: string, source: Pick<HistorySource, 'statements'>): Pick<HistorySource, 'statements'> {
  return {
    statements: async (period, balance) => {
      const key = `${prefix}${period}${balance ? '-with-balance' : ''}.json`
      const kept = await getJson<Array<[string, PeriodFigures]>>(bucket, key)
      if (kept) return new Map(kept)
      const got = await source.statements(period, balance)
      await putJson(bucket, key, [...got])
      return got
    },
  }
}
