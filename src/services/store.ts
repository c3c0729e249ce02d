import { buildUnderWay } from '../store/build-progress'
import { CALENDAR } from '../store/calendar-source'
import { CHAIN_MEMBERS } from '../store/chain-members'
import { FACTOR_TABLES } from '../store/factor-table'
import { HISTORIES } from '../store/history-cache'
import { OWNED_TABLES } from '../store/owned-tables'
import { readUniverse } from '../store/meta'
import { readEvidence } from '../store/playbook-evidence'
import { STATE_SHARDS } from '../store/state-shards'
import { LATEST_TECHNICALS, TECHNICALS_TABLES } from '../store/technicals'
import type { IsolateCaches } from '../runtime/isolate-caches'
import type { StoreReads } from './types'

/** The columns of a stored market day, in order: what a CSV of /v1/market-kline writes as it streams. */
export { MARKET_KLINE_COLUMNS } from '../store/market-kline'

/**
 * `services.store` (its shape: `StoreReads` in src/services/types.ts): the R2 reads routes make;
 * the layout of the objects lives in src/store/. What it keeps between requests are caches of its
 * `Services` (`caches`, each kind declared beside its class in src/store/): the calendar, the
 * latest technicals date, the parsed technicals tables, indicator-state shards, factor tables,
 * parsed histories and the industry-chain members (these two checked against their etag on every
 * read), and the owned tables (static assets, fixed for the deployment: clearing keeps them).
 */
export function storeReads(caches: IsolateCaches): StoreReads {
  const calendar = caches.of(CALENDAR)
  const latest = caches.of(LATEST_TECHNICALS)
  const technicals = caches.of(TECHNICALS_TABLES)
  const states = caches.of(STATE_SHARDS)
  const factorTables = caches.of(FACTOR_TABLES)
  const histories = caches.of(HISTORIES)
  const members = caches.of(CHAIN_MEMBERS)
  const tables = caches.of(OWNED_TABLES)
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
    chainMembers: (c) => members.read(c.env.STORE),
    chainThemes: (c) => tables.chainThemes(c),
    ownedText: (c, file) => tables.text(c, file),
    marketKline: (c, key) => c.env.STORE.get(key),
    buildUnderWay: (c) => buildUnderWay(c.env.STORE),
    bucket: (c) => c.env.STORE,
  }
}
