/**
 * `playbooks/evidence.json`: every playbook's backtest evidence, as the backtest job
 * (src/jobs/playbook-backtest.ts) writes it and /v1/playbooks serves it. It holds no clock time,
 * so the same history gives the same bytes.
 */
import { PLAYBOOK_EVIDENCE_KEY } from './keys'
import { getJson } from './r2-json'
import type { StoredEvidence } from './shapes'

export const EVIDENCE_VERSION: StoredEvidence['v'] = 1

/** The stored evidence, or undefined before the first complete run. */
export const readEvidence = (bucket: R2Bucket) => getJson<StoredEvidence>(bucket, PLAYBOOK_EVIDENCE_KEY)
