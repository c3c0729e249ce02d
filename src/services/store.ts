import { loadCalendar } from '../store/calendar-source'
import { membersReader } from '../store/chain-members'
import type { FactorTables } from '../store/factor-table'
import { readHistory } from '../store/history'
import { OwnedTables } from '../store/owned-tables'
import { readUniverse } from '../store/meta'
import { readEvidence } from '../store/playbook-evidence'
import { readStates } from '../store/state-shards'
import { latestTechnicalsDate, readTechnicals } from '../store/technicals'
import type { StoreReads } from './types'

/** The columns of a stored market day, in order: what a CSV of /v1/market-kline writes as it streams. */
export { MARKET_KLINE_COLUMNS } from '../store/market-kline'

/**
 * `services.store` (its shape: `StoreReads` in src/services/types.ts): the R2 reads routes make;
 * the layout of the objects lives in src/store/. Reads that keep a copy in the isolate (the calendar, the latest
 * technicals date, index shards) keep it there; the parsed factor tables (`factorTables`, forgotten
 * by `Services.reset()`), industry-chain members and owned tables (static assets, fixed for the
 * deployment: `reset()` keeps them) are kept here, one copy per `Services`.
 */
export function storeReads(factorTables: FactorTables): StoreReads {
  const members = membersReader()
  const tables = new OwnedTables()
  return {
    calendar: (c) => loadCalendar(c.env.STORE),
    factorTable: (c, market) => factorTables.read(c.env.STORE, market),
    history: (c, code) => readHistory(c.env.STORE, code),
    universe: (c) => readUniverse(c.env.STORE),
    playbookEvidence: (c) => readEvidence(c.env.STORE),
    latestTechnicalsDate: (c) => latestTechnicalsDate(c.env.STORE),
    technicals: (c, date) => readTechnicals(c.env.STORE, date),
    states: (c, date, codes) => readStates(c.env.STORE, date, codes),
    chainMembers: (c) => members(c.env.STORE),
    chainThemes: (c) => tables.chainThemes(c),
    marketKline: (c, key) => c.env.STORE.get(key),
    bucket: (c) => c.env.STORE,
  }
}
