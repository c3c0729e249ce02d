/**
 * Eastmoney's wire vocabulary as data: hosts, which `fNN` means what, `klt` codes and volume
 * units. URL builders request exactly these ids and parsers read them back by meaning, so an
 * upstream change is a one-line edit here. See src/channels/README.md and upstreams.md §1.5, §2.1.
 */
import type { Instrument } from '../../domain/instrument'
import type { NativePeriod } from '../types'

export const CHANNEL = 'eastmoney'

export const QUOTES_URL = 'https://push2.eastmoney.com/api/qt/ulist.np/get'
export const KLINE_URL = 'https://push2his.eastmoney.com/api/qt/stock/kline/get'

/** `ulist.np/get` list-namespace field ids (fltt=2), by meaning. */
export const QUOTE_FIELDS = {
  last: 'f2',
  changePct: 'f3',
  change: 'f4',
  volume: 'f5',
  amount: 'f6',
  turnover: 'f8',
  code: 'f12',
  market: 'f13',
  name: 'f14',
  high: 'f15',
  low: 'f16',
  open: 'f17',
  preClose: 'f18',
  /** Unix seconds of the quote. */
  time: 'f124',
  /** Trade date, `YYYYMMDD` integer. */
  tradeDate: 'f297',
} as const

/** The `fields=` value: every id above in ascending numeric order. */
export const QUOTE_FIELD_LIST = Object.values(QUOTE_FIELDS)
  .sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)))
  .join(',')

/** `kline/get` header fields (code, market, name, decimal, dktotal, preKPrice); we read none but ask as the README does. */
export const KLINE_FIELDS1 = 'f1,f2,f3,f4,f5,f6'

/** `kline/get` bar columns in request order, which is also the column order of every row. */
export const KLINE_FIELDS = [
  ['f51', 'date'],
  ['f52', 'open'],
  ['f53', 'close'],
  ['f54', 'high'],
  ['f55', 'low'],
  ['f56', 'volume'],
  ['f57', 'amount'],
  ['f58', 'amplitude'],
  ['f59', 'changePct'],
  ['f60', 'change'],
  ['f61', 'turnover'],
] as const

export type KlineColumn = (typeof KLINE_FIELDS)[number][1]

/** The `fields2=` value. */
export const KLINE_FIELD_LIST = KLINE_FIELDS.map(([id]) => id).join(',')

/** Position of each column in a K-line row. */
export const KLINE_COLUMN = Object.fromEntries(KLINE_FIELDS.map(([, name], i) => [name, i])) as Record<KlineColumn, number>

/** `klt` per period; season and year are native here (104, 106). */
export const KLT: Record<NativePeriod, number> = {
  day: 101,
  week: 102,
  month: 103,
  season: 104,
  year: 106,
  m1: 1,
  m5: 5,
  m15: 15,
  m30: 30,
  m60: 60,
}

/** `beg`/`end` when the request has no bounds: Eastmoney's "everything". */
export const BEG_ALL = '0'
export const END_ALL = '20500101'

/** Most secids per `ulist.np/get` request, and how many such requests may be in flight at once. */
export const QUOTE_BATCH = 100
export const QUOTE_CONCURRENCY = 4

/** Shares per unit of `f5`/`f56`: A-share markets count lots of 100; everything else is already in shares (or contracts). */
export function volumeScale(inst: Instrument): number {
  return inst.prefix === 'sh' || inst.prefix === 'sz' || inst.prefix === 'bj' ? 100 : 1
}
