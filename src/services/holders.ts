import { fetchHkHolders, type HkHolder } from '../channels/eastmoney/hk-holders'
import { fetchShareholders, type Shareholders } from '../channels/eastmoney/shareholders'
import { fetchCcass, type CcassSnapshot } from '../channels/hkex/ccass'
import { fetchSinaHolders } from '../channels/sina/holders'
import type { Instrument } from '../domain/instrument'
import type { Ask } from './types'

export { HOLDER_COUNT_PERIODS, type Holder, type HolderCountRow, type Shareholders } from '../channels/eastmoney/shareholders'
export type { HkHolder } from '../channels/eastmoney/hk-holders'
export type { CcassSnapshot } from '../channels/hkex/ccass'

/**
 * An A-share stock's top ten holders, top ten float holders and holder counts: Eastmoney's three
 * datacenter reports, or Sina's main-shareholder page (`vCI_StockHolder`: top ten and holder counts,
 * no float holders). /v1/shareholder.
 */
export const shareholders =
  (inst: Instrument): Ask<Shareholders> =>
  (channel, ctx) =>
    channel === 'sina' ? fetchSinaHolders(ctx, inst) : fetchShareholders(ctx, inst)

/** A Hong Kong stock's disclosed interests (Eastmoney). */
export const hkHolders =
  (inst: Instrument): Ask<HkHolder[]> =>
  (_channel, ctx) =>
    fetchHkHolders(ctx, inst)

/** A Hong Kong stock's CCASS record of the day: distribution and participants (HKEX's search). */
export const ccassRecord =
  (inst: Instrument): Ask<CcassSnapshot> =>
  (_channel, ctx) =>
    fetchCcass(ctx, inst)
