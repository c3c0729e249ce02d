import type { Bar } from '../../domain/bar'
import { empty, malformed } from '../errors'
import { checkBars, num, optNum } from '../validate'
import { isObject } from '../json'

const CHANNEL = 'tencent'

/**
 * Row positions (README "Tencent → K-lines"). Close comes before high. Position 6 of fqkline
 * rows is an object (`{}` or dividend info) and is never read; turnover and amount exist only in
 * newfqkline rows for sh/sz/bj.
 */
const FQ_ROW = { date: 0, open: 1, close: 2, high: 3, low: 4, volume: 5, turnover: 7, amount: 8 } as const
const M_ROW = { time: 0, open: 1, close: 2, high: 3, low: 4, volume: 5 } as const

/**
 * Units of a series: sh/sz/bj rows carry lots and 10k CNY, STAR-market stocks' rows shares and
 * 10k CNY (codes.ts volumeInShares), HK and US rows shares and no extras.
 */
export type RowUnits = 'ashare' | 'star' | 'plain'

const LOT = 100
const TEN_THOUSAND = 10_000

/** Shares per unit of a row's volume column. */
const perVolume = (units: RowUnits) => (units === 'ashare' ? LOT : 1)

const DAY = /^\d{4}-\d{2}-\d{2}$/
const MINUTE = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})$/

const times = (x: number, unit: number) => Math.round(x * unit * 100) / 100

/**
 * The object Tencent keeps under `data.<code>` in `{"code":0,"msg":"","data":{…}}`, or undefined
 * when the code is unknown (`"data":{}`; some error answers carry `"data":[]`).
 */
export function codeData(text: string, code: string): Record<string, unknown> | undefined {
  let doc: unknown
  try {
    // Tolerate a `_var=` style prefix: the JSON is the outermost object.
    doc = JSON.parse(text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1))
  } catch {
    throw malformed(CHANNEL, 'K-line answer is not JSON')
  }
  if (!isObject(doc)) throw malformed(CHANNEL, 'K-line answer is not an object')
  if (Number(doc.code) !== 0) throw malformed(CHANNEL, `K-line answer code ${JSON.stringify(doc.code)}: ${String(doc.msg ?? '')}`)
  const data = doc.data
  if (Array.isArray(data)) return undefined
  if (!isObject(data)) throw malformed(CHANNEL, 'K-line answer has no data object')
  const entry = data[code]
  if (entry === undefined) return undefined
  if (!isObject(entry)) throw malformed(CHANNEL, `data.${code} is not an object`)
  return entry
}

/** The rows under the first present key, or `empty` when there is no series. */
function series(entry: Record<string, unknown> | undefined, keys: string[], code: string): unknown[] {
  for (const k of keys) {
    const rows = entry?.[k]
    if (rows === undefined) continue
    if (!Array.isArray(rows)) throw malformed(CHANNEL, `${code}.${k} is not an array`)
    if (rows.length === 0) break
    return rows
  }
  throw empty(CHANNEL, `no ${keys.at(-1)} bars for ${code}`)
}

function row(r: unknown, at: number, min: number): unknown[] {
  if (!Array.isArray(r) || r.length < min) throw malformed(CHANNEL, `K-line row ${at} is not an array of at least ${min}`)
  return r
}

/**
 * Parses a newfqkline / hkfqkline / usfqkline answer for `code`: series `qfq<period>`, falling
 * back to `<period>` (indexes, unadjusted requests). Bars oldest first, in shares and currency units.
 */
export function parseFqkline(text: string, code: string, period: 'day' | 'week' | 'month', units: RowUnits): Bar[] {
  const rows = series(codeData(text, code), ['qfq' + period, period], code)
  const bars = rows.map((raw, at): Bar => {
    const r = row(raw, at, 6)
    const date = r[FQ_ROW.date]
    if (typeof date !== 'string' || !DAY.test(date)) throw malformed(CHANNEL, `bad K-line date ${JSON.stringify(date)}`)
    const f = (k: keyof typeof FQ_ROW) => num(CHANNEL, r[FQ_ROW[k]], `${k} at ${date}`)
    const extras = units !== 'plain'
    const amount = extras ? optNum(CHANNEL, r[FQ_ROW.amount], `amount at ${date}`) : null
    const unit = perVolume(units)
    return {
      date,
      open: f('open'),
      close: f('close'),
      high: f('high'),
      low: f('low'),
      volume: unit === 1 ? f('volume') : times(f('volume'), unit),
      amount: amount === null ? null : times(amount, TEN_THOUSAND),
      turnover: extras ? optNum(CHANNEL, r[FQ_ROW.turnover], `turnover at ${date}`) : null,
    }
  })
  return checkBars(CHANNEL, bars)
}

/**
 * Parses an mkline answer (sh/sz/bj only): `YYYYMMDDHHMM` bar ends, volume in lots (shares for a
 * STAR stock: `units` 'star'), no amount or turnover.
 */
export function parseMkline(text: string, code: string, period: 'm1' | 'm5' | 'm15' | 'm30' | 'm60', units: 'ashare' | 'star' = 'ashare'): Bar[] {
  const rows = series(codeData(text, code), [period], code)
  const bars = rows.map((raw, at): Bar => {
    const r = row(raw, at, 6)
    const t = typeof r[M_ROW.time] === 'string' ? MINUTE.exec(r[M_ROW.time] as string) : null
    if (!t) throw malformed(CHANNEL, `bad minute-bar time ${JSON.stringify(r[M_ROW.time])}`)
    const date = `${t[1]}-${t[2]}-${t[3]} ${t[4]}:${t[5]}`
    const f = (k: keyof typeof M_ROW) => num(CHANNEL, r[M_ROW[k]], `${k} at ${date}`)
    const unit = perVolume(units)
    return { date, open: f('open'), close: f('close'), high: f('high'), low: f('low'), volume: unit === 1 ? f('volume') : times(f('volume'), unit), amount: null, turnover: null }
  })
  return checkBars(CHANNEL, bars)
}
