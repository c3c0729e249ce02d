/** What `readStates` (./state-shards.ts) returns: the indicator states asked for, of one day. */
import type { StepState } from '../domain/indicators/step-state'

/** The states a caller asked for, of one day. */
export interface PickedStates {
  date: string
  /** States the day holds in all. */
  size: number
  /** The state of `code` after `date`: undefined when the day has none for it (or it was not asked for). */
  state(code: string): StepState | undefined
}
