import { CalendarCache } from '../store/calendar-source'
import { membersReader } from '../store/chain-members'
import type { FactorTables } from '../store/factor-table'
import { buildUnderWay } from '../store/build-progress'
import { HistoryCache } from '../store/history-cache'
import { OwnedTables } from '../store/owned-tables'
import { readUniverse } from '../store/meta'
import { readEvidence } from '../store/playbook-evidence'
import { StateShards } from '../store/state-shards'
import { LatestTechnicals, TechnicalsTables } from '../store/technicals'
import type { StoreReads } from './types'

/** The columns of a stored market day, in order: what a CSV of /v1/market-kline writes as it streams. */
export { MARKET_KLINE_COLUMNS } from '../store/market-kline'

/**
 * `services.store` (its shape: `StoreReads` in src/services/types.ts): the R2 reads routes make;
 * the layout of the objects lives in src/store/. What it keeps between requests is kept here, one
 * copy per `Services`: the calendar, the latest technicals date, the parsed technicals tables,
 * indicator-state shards, factor tables and parsed histories (these forgotten by `Services.reset()`;
 * the histories are checked against their etag on every read), the
 * industry-chain members (checked against the object's etag on every read) and the owned tables
 * (static assets, fixed for the deployment: `reset()` keeps them).
 */
export function storeReads(factorTables: FactorTables): StoreReads & { forget(): void } {
  const members = membersReader()
  const calendar = new CalendarCache()
  const latest = new LatestTechnicals()
  const technicals = new TechnicalsTables()
  const states = new StateShards()
  const tables = new OwnedTables()
  const histories = new HistoryCache()
  return {
    calendar: (c) => calendar.load(c.env.STORE),
    forgetCalendar: () => calendar.forget(),
    factorTable: (c, market) => factorTables.read(c.env.STORE, market),
    history: (c, code) => histories.history(c.env.STORE, code),
    universe: (c) => readUniverse(c.env.STORE),
    playbookEvidence: (c) => readEvidence(c.env.STORE),
    latestTechnicalsDate: (c) => latest.date(c.env.STORE),
    forgetLatestTechnicals: () => latest.forget(),
    technicals: (c, date) => technicals.day(c.env.STORE, date),
    states: (c, date, codes) => states.read(c.env.STORE, date, codes),
    chainMembers: (c) => members(c.env.STORE),
    chainThemes: (c) => tables.chainThemes(c),
    ownedText: (c, file) => tables.text(c, file),
    marketKline: (c, key) => c.env.STORE.get(key),
    buildUnderWay: (c) => buildUnderWay(c.env.STORE),
    bucket: (c) => c.env.STORE,
    forget: () => {
      calendar.forget()
      latest.forget()
      technicals.clear()
      states.clear()
      factorTables.clear()
      histories.clear()
    },
  }
}
