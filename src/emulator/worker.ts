/**
 * Offline entry (npm start without internet, tests, benchmarks): the same application with every
 * upstream request answered in-process by the emulator, the emulator's clock as the service
 * clock, and `source` labelled `emulator:<channel>`. Adds the `/__emulator/*` control routes.
 */
import '../env'
import { createApp } from '../app'
import { runScheduled } from '../jobs'
import { createServices } from '../services'
import { clock, createEmulatorFetch } from './control'
import { market } from './market'
import { emulatorRoutes } from './routes'

export { KeyGuard } from '../access/key-guard'
export { AnonGuard } from '../access/anon-guard'

export const services = createServices({
  fetch: createEmulatorFetch(market),
  now: () => clock.now(),
  sourcePrefix: 'emulator:',
  simulated: true,
})
const app = createApp(services)

// Forget breaker and failover memory, so a test can start from the channel table's order.
app.delete('/__emulator/router', (c) => {
  services.router.reset()
  return c.json({ ok: true })
})
app.route('/', emulatorRoutes)
// Baseline for `npm run bench`: the cheapest possible route in the same worker.
app.get('/__bench/constant', (c) => c.json({ ok: true }))

export default {
  fetch: app.fetch,
  scheduled: runScheduled,
} satisfies ExportedHandler<Env>
