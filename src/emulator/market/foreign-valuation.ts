/**
 * P/E and P/B of HK and US listings, as the whole-market lists print them: the catalogue states
 * each listing's trailing P/E and P/B at its `end` level (catalog.ts ForeignSpec), which fixes a
 * constant EPS = end / pe and book value per share = end / pb in the listing's currency; the
 * ratios at any price are that price over them. Null where the catalogue states none.
 */
import { HK_STOCKS, US_STOCKS, type ForeignSpec } from './catalog'
import type { EmuInstrument } from './types'

export interface ForeignValuation {
  pe: number | null
  pb: number | null
}

const specOf = (inst: EmuInstrument): ForeignSpec | undefined =>
  inst.kind === 'hk' ? HK_STOCKS[inst.symbol] : inst.kind === 'us' ? US_STOCKS[inst.symbol] : undefined

/** True for the kinds this model values (HK and US shares). */
export const isForeignStock = (inst: EmuInstrument) => inst.kind === 'hk' || inst.kind === 'us'

/** The two ratios of `inst` at `price`. */
export function foreignValuation(inst: EmuInstrument, price: number): ForeignValuation {
  const s = specOf(inst)
  const at = (stated: number | undefined) => (s === undefined || stated === undefined || stated <= 0 || price <= 0 ? null : price / (s.end / stated))
  return { pe: at(s?.pe), pb: at(s?.pb) }
}
