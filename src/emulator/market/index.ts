/**
 * The emulator's simulated market (see types.ts for the contract). `market` is lazy: the universe
 * and every price are generated on first use, so importing this costs nothing at startup.
 */
import { createMarket } from './model'

export type { EmuInstrument } from './types'
export { limitPrices, roundTo } from './limits'
export { hasTraded } from './quote'

/** The one market every emulated upstream reads. */
export const market = createMarket()
