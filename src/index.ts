/**
 * Production entry: the live upstreams over the global fetch. The emulator is never imported
 * here (see src/emulator/worker.ts for the offline entry).
 */
import './env'
import { createApp } from './app'
import { scheduledHandler } from './jobs'
import { createServices, locationLines } from './services'
import { setIsolateServices } from './services/isolate'

export { KeyGuard } from './access/key-guard'
export { AnonGuard } from './access/anon-guard'
export { HostBudget } from './runtime/host-budget-object'
export { StreamShard } from './features/stream/stream-shard'

const services = createServices({
  fetch: (input, init) => fetch(input, init),
  // The isolates of a location share live lines (docs/architecture.md, "Polite at scale").
  lineCache: locationLines(),
})
const app = createApp(services)
// The stream shards of this isolate poll through the same services (src/services/isolate.ts).
setIsolateServices(services)

export default {
  fetch: (request: Request, env: Env, ctx: ExecutionContext) => {
    services.channelContext.budgets?.configure(env.UPSTREAM_BUDGETS)
    return app.fetch(request, env, ctx)
  },
  scheduled: scheduledHandler(services),
} satisfies ExportedHandler<Env>
