/**
 * `playbooks/evidence.json`: every playbook's backtest evidence, as the backtest job
 * (src/jobs/playbook-backtest.ts) writes it and /v1/playbooks serves it. It holds no clock time,
 * so the same history gives the same bytes.
 */
import type { PlaybookEvidence } from '../domain/backtest/evidence'
import { PLAYBOOK_EVIDENCE_KEY } from './keys'
import { getJson } from './r2-json'

export const EVIDENCE_VERSION = 1

/** The stored evidence of every playbook. */
export interface StoredEvidence {
  v: typeof EVIDENCE_VERSION
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

/** The stored evidence, or undefined before the first complete run. */
export const readEvidence = (bucket: R2Bucket) => getJson<StoredEvidence>(bucket, PLAYBOOK_EVIDENCE_KEY)
