/**
 * The emulator as a Worker of its own that answers the upstreams' URLs (Eastmoney, Tencent, Sina,
 * THS, HKEX, SZSE) in their wire formats, on the real clock: what `npm run memory-proof` puts
 * behind the production Worker's outbound fetch, so that the Worker's isolate holds only our code
 * and its data while the emulator's model lives in another runtime.
 */
import { createEmulatorFetch } from './control'
import { market } from './market'

const upstream = createEmulatorFetch(market)

export default {
  fetch: (request: Request) => upstream(request),
} satisfies ExportedHandler
