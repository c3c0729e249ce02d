import type { ScreenMarket } from '../data/factors'
import { loadCalendar } from '../store/calendar-source'
import { membersReader } from '../store/chain-members'
import { readFactorTable } from '../store/factor-table'
import { readHistory } from '../store/history'
import { readUniverse } from '../store/meta'
import { readEvidence } from '../store/playbook-evidence'
import { readStates } from '../store/state-shards'
import { latestTechnicalsDate, readTechnicals } from '../store/technicals'

/** The columns of a stored market day, in order: what a CSV of /v1/market-kline writes as it streams. */
export { MARKET_KLINE_COLUMNS } from '../store/market-kline'

/** What a store read needs of the request: the R2 bucket (a hono `Context` is one). */
export interface StoreRequest {
  env: { STORE: R2Bucket }
}

/**
 * The R2 reads routes make (`services.store`), each named for what it reads; the layout of the
 * objects lives in src/store/. Reads that keep a copy in the isolate (the calendar, factor tables,
 * the latest technicals date, index shards) keep it there; the parsed industry-chain members are
 * kept here, one copy per `Services`.
 */
export function storeReads() {
  const members = membersReader()
  return {
    /** The trading calendar in force (holidays table, refreshed by the calendar job). */
    calendar: (c: StoreRequest) => loadCalendar(c.env.STORE),
    /** The newest factor table of `market` (the screen's and the overview's valuation fallback). */
    factorTable: (c: StoreRequest, market: ScreenMarket) => readFactorTable(c.env.STORE, market),
    /** One stock's daily history since HISTORY_START, or undefined when it is not built. */
    history: (c: StoreRequest, code: string) => readHistory(c.env.STORE, code),
    /** The A-share list of the last build. */
    universe: (c: StoreRequest) => readUniverse(c.env.STORE),
    /** The playbooks' backtest evidence. */
    playbookEvidence: (c: StoreRequest) => readEvidence(c.env.STORE),
    /** The session of the newest technicals table, if any is built. */
    latestTechnicalsDate: (c: StoreRequest) => latestTechnicalsDate(c.env.STORE),
    /** The technicals table of one session. */
    technicals: (c: StoreRequest, date: string) => readTechnicals(c.env.STORE, date),
    /** The indicator states of `codes` after session `date`. */
    states: (c: StoreRequest, date: string, codes: readonly string[]) => readStates(c.env.STORE, date, codes),
    /** The industry-chain members document, parsed once per version; undefined before the job's first run. */
    chainMembers: (c: StoreRequest) => members(c.env.STORE),
    /** The whole market's day under `key` (src/store/keys.ts `marketKlineKey`), as its R2 object. */
    marketKline: (c: StoreRequest, key: string) => c.env.STORE.get(key),
  }
}

/** `services.store`. */
export type StoreReads = ReturnType<typeof storeReads>
