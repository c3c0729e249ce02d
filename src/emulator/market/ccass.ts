/**
 * Who holds an HK stock in CCASS (HKEX's Central Clearing and Settlement System) at the end of a
 * day, as the CCASS Shareholding Search prints it: the issued shares (the model's total shares,
 * the same figure every quote's market cap is built from), the shares kept outside CCASS (the
 * controlling holder's registered block, the one `hk-holders.ts` discloses, plus a little held in
 * certificates), and the CCASS total split into its categories: market intermediaries (custodian
 * banks, brokers, China Clearing for Stock Connect, each listed), consenting investor participants
 * (none in this model) and non-consenting investor participants (counted, never listed). The
 * participants and their weights are fixed per stock; the weights drift a little from day to day.
 * Deterministic per stock and date. Pure.
 */
import { addDays, dayNumber, weekday } from '../../domain/dates'
import { isSessionDay } from './calendars'
import { hkHolderPeriods, hkHolders } from './hk-holders'
import { hashString, uniform } from './random'
import type { EmuInstrument } from './types'

/** One listed CCASS participant's holding. */
interface CcassHolding {
  /** Participant ID as CCASS prints it: a letter and five digits. */
  id: string
  name: string
  address: string
  shares: number
}

/** An aggregate category of the summary (shares and the number of participants). */
interface CcassCategory {
  shares: number
  participants: number
}

/** One stock's CCASS record of one day. */
export interface CcassRecord {
  /** The record's date (`YYYY-MM-DD`): never a Sunday or an HK holiday. */
  date: string
  /** Total issued shares (the model's total shares). */
  issued: number
  /** Market intermediaries, largest first; their shares sum to `intermediaries.shares`. */
  holdings: CcassHolding[]
  intermediaries: CcassCategory
  consenting: CcassCategory
  nonConsenting: CcassCategory
}

/**
 * Participants a large HK stock is held through. The IDs named in HKEX's own texts (A00003 and
 * A00004, China Clearing for the Shanghai and Shenzhen links, in the Stock Connect search page)
 * and the custodians' well-known IDs (C00019 HSBC, C00100 JPMorgan, C00010 Citibank) are used as
 * such; the rest are real-looking IDs of the same kinds (C custodians, B brokers), not a register.
 * Names as CCASS prints them, in capitals; weight = the participant's usual share of the holdings.
 */
const CUSTODIANS: ReadonlyArray<readonly [string, string, number]> = [
  ['C00019', 'THE HONGKONG AND SHANGHAI BANKING CORPORATION LIMITED', 30],
  ['C00100', 'JPMORGAN CHASE BANK, NATIONAL ASSOCIATION', 9],
  ['C00010', 'CITIBANK N.A.', 8],
  ['C00039', 'STANDARD CHARTERED BANK (HONG KONG) LIMITED', 5],
  ['C00016', 'DEUTSCHE BANK AG', 3],
  ['C00093', 'BANK OF CHINA (HONG KONG) LIMITED', 3],
  ['C00074', 'BNP PARIBAS SECURITIES SERVICES', 2],
  ['C00098', 'BOCI SECURITIES LIMITED', 1.5],
]
const CONNECT: ReadonlyArray<readonly [string, string, number]> = [
  ['A00003', 'CHINA SECURITIES DEPOSITORY AND CLEARING CORPORATION LIMITED', 6],
  ['A00004', 'CHINA SECURITIES DEPOSITORY AND CLEARING CORPORATION LIMITED', 4],
]
const BROKERS: ReadonlyArray<readonly [string, string]> = [
  ['B01451', 'GOLDMAN SACHS (ASIA) SECURITIES LIMITED'],
  ['B01274', 'MORGAN STANLEY HONG KONG SECURITIES LIMITED'],
  ['B01161', 'UBS SECURITIES HONG KONG LIMITED'],
  ['B01224', 'MERRILL LYNCH FAR EAST LIMITED'],
  ['B01955', 'FUTU SECURITIES INTERNATIONAL (HONG KONG) LIMITED'],
  ['B01078', 'CITIGROUP GLOBAL MARKETS ASIA LIMITED'],
  ['B02068', 'CITIC SECURITIES BROKERAGE (HK) LIMITED'],
  ['B01781', 'HAITONG INTERNATIONAL SECURITIES COMPANY LIMITED'],
  ['B01228', 'CHINA INTERNATIONAL CAPITAL CORPORATION HONG KONG SECURITIES LIMITED'],
  ['B01130', 'BOCOM INTERNATIONAL SECURITIES LIMITED'],
  ['B01491', 'GUOTAI JUNAN SECURITIES (HONG KONG) LIMITED'],
  ['B01977', 'TIGER BROKERS (HK) GLOBAL LIMITED'],
  ['B01138', 'BANK OF CHINA INTERNATIONAL SECURITIES LIMITED'],
  ['B01299', 'J.P. MORGAN BROKING (HONG KONG) LIMITED'],
  ['B01504', 'HUATAI FINANCIAL HOLDINGS (HONG KONG) LIMITED'],
  ['B01668', 'CMB INTERNATIONAL SECURITIES LIMITED'],
  ['B01554', 'HANG SENG SECURITIES LIMITED'],
  ['B01323', 'CREDIT SUISSE SECURITIES (HONG KONG) LIMITED'],
  ['B01366', 'BARCLAYS CAPITAL ASIA LIMITED'],
  ['B01490', 'CHIEF SECURITIES LIMITED'],
  ['B01626', 'PHILLIP SECURITIES (HONG KONG) LIMITED'],
  ['B01712', 'BRIGHT SMART SECURITIES INTERNATIONAL (H.K.) LIMITED'],
  ['B01846', 'SOOCHOW SECURITIES INTERNATIONAL BROKERAGE LIMITED'],
  ['B01900', 'VALUABLE CAPITAL LIMITED'],
]
const ADDRESSES = [
  '1 QUEEN\'S ROAD CENTRAL, HONG KONG',
  '8 CONNAUGHT ROAD CENTRAL, HONG KONG',
  'LEVEL 28, TWO PACIFIC PLACE, 88 QUEENSWAY, HONG KONG',
  '2 INTERNATIONAL FINANCE CENTRE, 8 FINANCE STREET, CENTRAL, HONG KONG',
  'NO. 17 TAIPINGQIAO STREET, XICHENG DISTRICT, BEIJING',
]

const SALT_CCASS = 0x5cc4
/** CCASS keeps records for 12 months. */
export const CCASS_RETENTION_DAYS = 365

/**
 * The date whose record a search for `date` shows: the date itself, or the last earlier one that
 * is neither a Sunday nor an HK public holiday (HKEX: "If the shareholding date is a Sunday or
 * Hong Kong public holiday, the last record which is not…"); Saturdays carry a record.
 */
export function ccassRecordDate(date: string): string {
  let d = date
  while (weekday(d) === 0 || (weekday(d) !== 6 && !isSessionDay('hk', d))) d = addDays(d, -1)
  return d
}

/** Splits `total` shares by `weights` into whole shares summing exactly to `total`, in the weights' order. */
function allocate(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((s, w) => s + w, 0)
  const out = weights.map((w) => Math.floor((total * w) / sum))
  let rest = total - out.reduce((s, v) => s + v, 0)
  for (let k = 0; rest > 0; k = (k + 1) % out.length, rest--) out[k] += 1
  return out
}

/** Shares of the controlling holder `hk-holders.ts` discloses, registered outside CCASS. */
function controllingBlock(inst: EmuInstrument, date: string): number {
  const end = hkHolderPeriods(inst, date)[0]
  const holder = end ? hkHolders(inst, end).find((h) => h.identity === '受控法团权益') : undefined
  return holder?.shares ?? 0
}

/**
 * The CCASS record of an HK stock a search for `date` shows (the record of {@link ccassRecordDate}),
 * or null: not an HK stock, no share count, or not listed yet on that date.
 */
export function ccassRecord(inst: EmuInstrument, date: string): CcassRecord | null {
  const issued = inst.totalShares
  const day = ccassRecordDate(date)
  if (inst.kind !== 'hk' || !issued || day < inst.listDate) return null
  const seed = hashString(inst.code) ^ SALT_CCASS
  const dn = dayNumber(day)
  const outside = Math.min(issued - 1, controllingBlock(inst, day) + Math.round(issued * (0.003 + 0.017 * uniform(seed, 1))))
  const inCcass = issued - outside
  const nonConsenting = Math.round(inCcass * (0.002 + 0.01 * uniform(seed, 2)) * (0.98 + 0.04 * uniform(seed, 3, dn)))
  const brokers = 8 + Math.floor(uniform(seed, 4) * (BROKERS.length - 7))
  const start = Math.floor(uniform(seed, 5) * BROKERS.length)
  const members = [
    ...CUSTODIANS.map(([id, name, w], k) => ({ id, name, w: w * (0.6 + 0.8 * uniform(seed, 6, k)) })),
    ...CONNECT.map(([id, name, w], k) => ({ id, name, w: w * (0.2 + 1.6 * uniform(seed, 7, k)) })),
    ...Array.from({ length: brokers }, (_, k) => {
      const [id, name] = BROKERS[(start + k) % BROKERS.length]
      return { id, name, w: 2.5 * uniform(seed, 8, k) ** 2 + 0.01 }
    }),
  ]
  const weights = members.map((m, k) => m.w * (0.97 + 0.06 * uniform(seed, 9, k, dn)))
  const shares = allocate(inCcass - nonConsenting, weights)
  const holdings = members
    .map((m, k) => ({ id: m.id, name: m.name, address: ADDRESSES[hashString(m.id) % ADDRESSES.length], shares: shares[k] }))
    .sort((a, b) => b.shares - a.shares || a.id.localeCompare(b.id))
  return {
    date: day,
    issued,
    holdings,
    intermediaries: { shares: inCcass - nonConsenting, participants: holdings.length },
    consenting: { shares: 0, participants: 0 },
    nonConsenting: { shares: nonConsenting, participants: 1500 + Math.floor(uniform(seed, 10) * 20000 + 200 * uniform(seed, 11, dn)) },
  }
}
