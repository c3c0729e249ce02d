/** The `push2` hosts' answer around every `data`, and the type of one field value. */
export type Value = number | string

/**
 * The envelope keys Eastmoney puts around every `data`. The list hosts (`ulist.np`, `clist`, K-lines)
 * add `dlmkts`; `stock/get` does not (test/fixtures/push2).
 */
export const envelope = (rc: number, data: unknown, withMarkets = true) =>
  withMarkets ? { rc, rt: rc === 0 ? 11 : 4, svr: 181735076, lt: 1, full: 1, dlmkts: '', data } : { rc, rt: rc === 0 ? 11 : 4, svr: 181735076, lt: 1, full: 1, data }
