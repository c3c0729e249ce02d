/** The `push2` hosts' answer around every `data`, and the type of one field value. */
export type Value = number | string

/** The envelope keys Eastmoney puts around every `data`. */
export const envelope = (rc: number, data: unknown) => ({ rc, rt: rc === 0 ? 11 : 4, svr: 181735076, lt: 1, full: 1, dlmkts: '', data })
