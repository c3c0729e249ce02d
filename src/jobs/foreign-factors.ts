/**
 * The HK and US screening tables: `factors/hk/<date>.json` and `factors/us/<date>.json`, each
 * from one walk of that market's whole-market list (src/channels/eastmoney/foreign-list.ts), with
 * exactly the factors the catalogue (src/data/factors.ts) gives the market: the list's prices,
 * volume, valuation, caps and period changes. Prices and amounts in the listing's currency (HKD,
 * USD); caps in 100 million of it, as hs's are in 100 million CNY.
 *
 * `date` is the session date the list's rows carry (f297, in the exchange's calendar: US Eastern
 * for us), so no HK or US holiday table is needed: on a holiday the list still shows the last
 * session, whose table exists, and the run does nothing.
 *
 * Schedule (src/jobs/index.ts): HK closes 16:10 Beijing (closing auction), US 16:00 Eastern =
 * 04:00 (summer) / 05:00 (winter) Beijing the next day. A list counts as final from 16:30 exchange
 * time on its session date, or once the exchange's date has moved past it. The cron runs after
 * that; a first start or backfill (`live`) also builds from a list whose session is still open,
 * marked `final: false`, which the next after-close run replaces. Upstream history of these lists
 * does not exist, so HK and US tables start from the first run: no backfilled dates.
 *
 * Cost: one list walk (HK about 2,700 rows, US about 12,000: 27 and 120 pages of 100) plus four
 * R2 calls, inside one invocation's 1,000 subrequests.
 */
import type { Instrument } from '../domain/instrument'
import { exchangeClock } from '../channels/eastmoney/clock'
import { fetchForeignList, type ForeignMarket, type ForeignRow } from '../channels/eastmoney/foreign-list'
import { roundTo } from '../domain/indicators/row'
import type { Services } from '../services/types'
import { hasFinalFactorTable, writeFactorTable, type StoredFactorTable } from '../store/factor-table'
import { recordRun, type RunEntry } from '../store/meta'
import { pacedContext } from './pace'

export const FOREIGN_MARKETS: readonly ForeignMarket[] = ['hk', 'us']

/** Exchange wall-clock minute from which a session's list is final: 16:30, after HK's 16:10 auction and the US 16:00 close. */
const LIST_SETTLED_MINUTE = 16 * 60 + 30

const cap = (v: number | null) => (v === null ? null : roundTo(v / 1e8, 4))

/**
 * Each hk/us factor from a list row: the catalogue's factors of those markets, no more (a test
 * holds the two equal). Day values (`day: true`) are null for a row whose last trade is older than
 * the table's date: the stock did not trade that session.
 */
export const FROM_LIST: Record<string, { day: boolean; of: (r: ForeignRow) => number | null }> = {
  ClosePrice: { day: true, of: (r) => r.close },
  ChangePCT: { day: true, of: (r) => r.changePct },
  Amplitude: { day: true, of: (r) => r.amplitude },
  Volume: { day: true, of: (r) => r.volume },
  Amount: { day: true, of: (r) => r.amount },
  TurnoverRate: { day: true, of: (r) => r.turnover },
  // As for hs, no P/E where earnings are not positive (the list prints a loss-maker's as negative or not at all).
  PE_TTM: { day: false, of: (r) => (r.pe !== null && r.pe > 0 ? r.pe : null) },
  PB: { day: false, of: (r) => r.pb },
  TotalMV: { day: false, of: (r) => cap(r.totalCap) },
  FloatMV: { day: false, of: (r) => cap(r.floatCap) },
  Change60D: { day: false, of: (r) => r.change60d },
  ChangeYTD: { day: false, of: (r) => r.changeYtd },
}

/** The session date of a list: the newest date its rows carry (a halted stock keeps an older one). */
export function listDate(rows: readonly ForeignRow[]): string {
  let date = ''
  for (const r of rows) if (r.date > date) date = r.date
  return date
}

/** True once the session `date` of `market` is over at `now`, by the exchange's own clock. */
export function listSettled(market: ForeignMarket, date: string, now: number): boolean {
  const clock = exchangeClock({ prefix: market } as Instrument, Math.floor(now / 1000))
  const minute = Number(clock.time.slice(0, 2)) * 60 + Number(clock.time.slice(3, 5))
  return date < clock.date || (date === clock.date && minute >= LIST_SETTLED_MINUTE)
}

/** The factor table of a list (rows ascending by code). */
export function foreignFactorTable(market: ForeignMarket, rows: readonly ForeignRow[], builtAt: string, final: boolean): StoredFactorTable {
  const date = listDate(rows)
  const columns: StoredFactorTable['columns'] = {}
  for (const [name, { day, of }] of Object.entries(FROM_LIST)) {
    columns[name] = rows.map((r) => {
      if (day && r.date !== date) return null
      const v = of(r)
      return v === null || !Number.isFinite(v) ? null : v
    })
  }
  return { market, date, built_at: builtAt, ...(final ? {} : { final: false }), codes: rows.map((r) => r.code), names: rows.map((r) => r.name), columns }
}

export interface ForeignFactorsOptions {
  /** Build from a list whose session is still open (first start, backfill); default false (the cron). */
  live?: boolean
  /** The market list; defaults to Eastmoney's through `services.channelContext`. */
  list?: (market: ForeignMarket) => Promise<ForeignRow[]>
}

export type ForeignFactorsRun = RunEntry & { market: ForeignMarket; date?: string }

const foreignJobName = (market: ForeignMarket) => `factors-${market}`

/**
 * Builds the factor table of `market`'s latest session, once it is final (or now, with `live`);
 * an existing final table of that date is left alone. Records the run under `factors-<market>`.
 */
export async function foreignFactorsJob(env: Env, services: Pick<Services, 'channelContext' | 'now'>, market: ForeignMarket, o: ForeignFactorsOptions = {}): Promise<ForeignFactorsRun> {
  const t0 = Date.now()
  const now = services.now()
  const at = new Date(now).toISOString()
  let entry: ForeignFactorsRun
  try {
    const rows = await (o.list ?? ((m) => fetchForeignList(pacedContext(services.channelContext), m)))(market)
    const date = listDate(rows)
    if (!date) throw new Error(`the ${market} list has no rows`)
    const final = listSettled(market, date, now)
    if (!final && !o.live) {
      entry = { at, status: 'skipped', ms: Date.now() - t0, market, date, reason: `the ${market} session of ${date} is not over (final from 16:30 exchange time)` }
    } else if (await hasFinalFactorTable(env.STORE, market, date)) {
      entry = { at, status: 'skipped', ms: Date.now() - t0, market, date, reason: `the ${market} table of ${date} is built` }
    } else {
      const table = foreignFactorTable(market, rows, at, final)
      const bytes = await writeFactorTable(env.STORE, table)
      entry = { at, status: 'done', ms: Date.now() - t0, market, date, rows: rows.length, factors: Object.keys(table.columns).length, bytes, final }
    }
  } catch (e) {
    entry = { at, status: 'error', ms: Date.now() - t0, market, error: e instanceof Error ? e.message : String(e) }
    console.error(`factors-${market}: ${entry.error}`)
  }
  await recordRun(env.STORE, foreignJobName(market), entry.date ?? at.slice(0, 10), entry)
  return entry
}

/** The job as a cron entry of src/jobs/index.ts JOBS: one market, after its close. */
export const foreignFactorsCron =
  (market: ForeignMarket) =>
  async (_event: ScheduledController, env: Env, _ctx: ExecutionContext, services: Services): Promise<void> => {
    await foreignFactorsJob(env, services, market)
  }
