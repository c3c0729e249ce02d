/**
 * What the store's reads hand out (`services.store`, src/services/types.ts), as types only: a route
 * that names a stored shape depends on this file, not on the code that reads and writes it.
 */
import type { ScreenMarket } from '../data/factors'
import type { Position } from '../data/industry-chains/build'
import type { PlaybookEvidence } from '../domain/backtest/evidence'
import type { BuildProgress } from '../domain/build-progress'
import type { StepState } from '../domain/indicators/step-state'
import type { ScreenTable } from '../domain/screen/evaluate'

/** A corporate action as stored: ex-date, cash per share, bonus (送转) shares per share. */
type StoredAction = [exDate: string, cash: number, bonus: number]

/** One stock's daily history since HISTORY_START (./history.ts describes the layout). */
export interface History {
  /** HISTORY_VERSION (./history.ts). */
  v: 1
  code: string
  /** Date of the last bar (`YYYY-MM-DD`); '' while there are none. */
  last: string
  t: number[]
  o: number[]
  h: number[]
  l: number[]
  c: number[]
  vol: number[]
  amt: Array<number | null>
  /** Turnover rate, percent; null where unknown (see the top of ./history.ts: absent in old blobs until read). */
  tr: Array<number | null>
  act: StoredAction[]
}

/** The A-share list of the last build (./meta.ts). */
export interface Universe {
  date: string
  codes: string[]
  /** Short names by code, when the snapshot carried them. */
  names?: Record<string, string>
  /** Share counts and listing date by code, from the same market list: [total shares, float shares, listing date]. */
  profiles?: Record<string, [number | null, number | null, string | null]>
}

/** The stored evidence of every playbook. */
export interface StoredEvidence {
  /** EVIDENCE_VERSION (./playbook-evidence.ts). */
  v: 1
  /** Last day of the history the backtest ran on. */
  through: string
  period: { from: string; to: string; sessions: number }
  simulated: boolean
  note: string
  universe: { stocks: number; with_history: number; description: string }
  index: { code: string; name: string }
  costs: { commission_pct: number; stamp_duty_pct: number }
  execution: string
  playbooks: Record<string, PlaybookEvidence>
}

/** A stored table in the shape the evaluator reads (NaN for null), plus its rows' codes and names. */
export interface LoadedFactorTable extends ScreenTable {
  market: ScreenMarket
  date: string
  has(factor: string): boolean
}

/** The industry-chain members document (./chain-members.ts): what the industry-chain job writes and /v1/industry-chain reads. */
export interface MembersDoc {
  computed_at: string
  complete: boolean
  coverage: { boards: number; boards_named: number; compositions: number; candidates: number }
  names: Record<string, string>
  themes: Array<{
    id: string
    name: string
    nodes: Array<{
      id: string
      name: string
      position: Position
      rule: string
      computed_at: string
      members: Array<{ code: string; relevance: number | null; via: string }>
    }>
    edges: Array<[string, string]>
  }>
}

/** A day's technicals table ready for lookups; built by `technicalsDay` (./technicals.ts). */
export interface TechnicalsDay {
  date: string
  size: number
  /** The stored row of `code`: its name and the value of each column, or undefined. */
  row(code: string): { name: string | null; get(column: string): number | null } | undefined
  /**
   * The technical row of `code` (code, name, date, then the technical columns) as JSON text, made
   * once per isolate: a 1,000-symbol batch then joins ready strings instead of serialising 55,000 values.
   */
  rowJson(code: string): string | undefined
  /**
   * The whole batch item of `code` (`{"code":…,"ok":true,"data":row}`) as UTF-8 bytes, made once per
   * isolate: a batch answer is then one copy of ready bytes per symbol, with no string to build or encode.
   */
  itemBytes(code: string): Uint8Array | undefined
  codes(): string[]
}

/** The indicator states a caller asked for, of one day (`readStates`, ./state-shards.ts). */
export interface PickedStates {
  date: string
  /** States the day holds in all. */
  size: number
  /** The state of `code` after `date`: undefined when the day has none for it (or it was not asked for). */
  state(code: string): StepState | undefined
}

/** A history build under way (./build-progress.ts), with what it covers. */
export interface Building {
  progress: BuildProgress
  /** The build will write this stock's history. */
  buildsHistoryOf(code: string): boolean
  /** The build will write this day's market-kline. */
  buildsDay(date: string): boolean
}

/** What a read of the owned tables needs of the request: the static assets' binding (./owned-tables.ts). */
export interface AssetsRequest {
  env: { ASSETS: Fetcher }
}
