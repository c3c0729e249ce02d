/**
 * The isolate's `Services`, for code the Worker's routes do not call: the Durable Objects of the
 * same script (src/features/stream/stream-shard.ts). Each entry (src/index.ts live, src/emulator/worker.ts
 * offline) builds its `Services` once per isolate and sets it here, so an object polls through the
 * same channels, line pool, failover and budgets as the isolate's routes, and production never
 * imports the emulator.
 */
import type { Services } from './types'

let current: Services | undefined

/** Set once by the entry module that built the isolate's `Services`. */
export function setIsolateServices(services: Services): void {
  current = services
}

/** The isolate's `Services`; throws when no entry set one (a module loaded without its entry). */
export function isolateServices(): Services {
  if (!current) throw new Error('no Services in this isolate: the entry module sets them (src/services/isolate.ts)')
  return current
}
