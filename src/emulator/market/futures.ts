/**
 * Futures liquidity, open interest and the main continuous contract (`fuRB0`). A contract is most
 * liquid about 2.5 months before delivery; its open interest follows the same curve, smoothly, so
 * the contract with the largest open interest (the main contract, 主力) only ever rolls forward.
 * The main contract of a day is decided on the previous session's closing open interest, as data
 * vendors roll overnight: it never changes during a session. The continuous series is the main
 * contract's own bars spliced at each roll, unadjusted (what Sina's `RB0` and Eastmoney's `113.rbm`
 * show), and the continuous quote is the main contract's quote.
 */
import { futuresProduct, isMainContract } from '../../domain/futures'
import { monthOfDay, monthStartDay, sessionDayOnOrBefore } from './calendars'
import type { EmuInstrument } from './types'
import { profileOf, universe } from './universe'

/** Relative liquidity of a contract `toDelivery` months before its delivery month. */
export const liquidity = (toDelivery: number): number => Math.exp(-Math.abs(toDelivery - 2.5) / 1.8)

/** Open interest of a typical product's peak contract, as a multiple of its daily volume. */
const OI_PER_VOLUME = 1.6

/**
 * Open interest (contracts) of a futures contract at the close of day `day`; 0 outside its
 * listing and for every other kind. A main continuous contract has its main contract's.
 */
export function openInterest(inst: EmuInstrument, day: number): number {
  if (inst.kind !== 'future') return 0
  if (isMainContract(inst)) {
    const c = mainContractOn(inst, day)
    return c ? openInterest(c, day) : 0
  }
  const p = profileOf(inst)
  if (day < p.firstDay || day > p.lastDay) return 0
  const m = monthOfDay(day)
  const start = monthStartDay(m)
  const frac = (day - start) / (monthStartDay(m + 1) - start)
  return Math.max(1, Math.round(p.volBase * OI_PER_VOLUME * liquidity(p.delivery - m - frac)))
}

const contractsCache = new Map<string, EmuInstrument[]>()

/** Every dated contract of a product, by delivery. */
function contractsOf(product: string): EmuInstrument[] {
  let list = contractsCache.get(product)
  if (!list) {
    list = universe().list.filter((i) => i.kind === 'future' && !isMainContract(i) && futuresProduct(i.symbol) === product)
    contractsCache.set(product, list)
  }
  return list
}

const mainCache = new Map<string, EmuInstrument | null>()

/**
 * The contract a main continuous contract follows on `day`: among the contracts trading that day,
 * the one with the largest open interest at the previous session's close (earlier delivery on a
 * tie). Undefined before any contract of the product trades. A dated contract is its own.
 */
export function mainContractOn(inst: EmuInstrument, day: number): EmuInstrument | undefined {
  if (!isMainContract(inst)) return inst
  const product = futuresProduct(inst.symbol)!
  const key = product + day
  const hit = mainCache.get(key)
  if (hit !== undefined) return hit ?? undefined
  const ref = sessionDayOnOrBefore('cn', day - 1)
  let best: EmuInstrument | null = null
  let bestOi = -1
  for (const c of contractsOf(product)) {
    const p = profileOf(c)
    if (day < p.firstDay || day > p.lastDay) continue
    const oi = openInterest(c, ref)
    if (oi > bestOi) {
      best = c
      bestOi = oi
    }
  }
  if (mainCache.size > 50_000) mainCache.clear()
  mainCache.set(key, best)
  return best ?? undefined
}


/** The first-listed contract of a main continuous contract's product (its quote before anything trades). */
export const firstContract = (inst: EmuInstrument): EmuInstrument | undefined => contractsOf(futuresProduct(inst.symbol)!)[0]
