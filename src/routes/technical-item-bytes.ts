/**
 * One /v1/technical-batch item with a freshly computed row, `{"code":…,"ok":true,"data":{…},"as_of":…}`,
 * as UTF-8 bytes: the same bytes `JSON.stringify` gives (technical-item-bytes.test.ts), written
 * with src/http/json-bytes.ts, which is several times faster for the live batch's 1,000 rows.
 */
import { TECHNICAL_COLUMNS, type NumericColumn, type TechnicalRow } from '../domain/indicators/columns'
import { roundedUnits, type RowIdentity } from '../domain/indicators/row'
import { nextValuesInto, type StepBar, type StepState } from '../domain/indicators/step'
import { jsonFragment, type JsonBytes } from '../http/json-bytes'

/** The numeric columns in row order (a step's values' order): the key fragment written before each value, and whether it is a price level. */
const NUMERIC = TECHNICAL_COLUMNS.filter(([, kind]) => kind !== 'id').map(([name, kind]) => ({
  name: name as NumericColumn,
  key: jsonFragment(`,${JSON.stringify(name)}:`),
  price: kind === 'price',
}))

/** The identity columns, in row order. */
const ID = ['code', 'name', 'date']
const CODE = jsonFragment('{"code":')
const OK_DATA_CODE = jsonFragment(',"ok":true,"data":{"code":')
const NAME = jsonFragment(',"name":')
const DATE = jsonFragment(',"date":')
const AS_OF = jsonFragment('},"as_of":')
const END_ROW = jsonFragment('}}')
const END = jsonFragment('}')

/**
 * The item's bytes, appended to `w` (a view of its buffer: a batch writes its items one after the
 * other into one writer). `priceDecimals` is what the row's price columns were rounded to; other
 * numbers are rounded to 4 decimals.
 */
export function technicalItemBytes(w: JsonBytes, code: string, row: TechnicalRow, priceDecimals: number, asOf?: string): Uint8Array {
  const from = w.length
  w.bytes(CODE).string(code).bytes(OK_DATA_CODE).string(row.code).bytes(NAME).string(row.name).bytes(DATE).string(row.date)
  // Rows are built with their keys in column order: reading them in for-in order is a plain field
  // load (a keyed read by each column's name is a lookup); a row in another order is written by name.
  let k = 0
  for (const name in row) {
    if (k < ID.length) {
      if (name !== ID[k]) return technicalItemBytesByName(w, from, code, row, priceDecimals, asOf)
    } else {
      const c = NUMERIC[k - ID.length]
      if (c === undefined || c.name !== name) return technicalItemBytesByName(w, from, code, row, priceDecimals, asOf)
      w.bytes(c.key).number(row[c.name], c.price ? priceDecimals : 4)
    }
    k++
  }
  if (k !== ID.length + NUMERIC.length) return technicalItemBytesByName(w, from, code, row, priceDecimals, asOf)
  if (asOf === undefined) w.bytes(END_ROW)
  else w.bytes(AS_OF).string(asOf).bytes(END)
  return w.view(from)
}

/** A step's values, written and read at once. */
const stepped = new Float64Array(NUMERIC.length)

/**
 * The item of `bar`, the bar after `state`'s last one: nextRow's row (src/domain/indicators/step.ts),
 * written straight from the step's unrounded values, each rounded as the row rounds it (no row
 * object, no rounded double formatted again). `state` is left as it was.
 */
export function steppedItemBytes(w: JsonBytes, code: string, state: StepState, bar: StepBar, id: RowIdentity, asOf?: string): Uint8Array {
  const values = nextValuesInto(state, bar, stepped)
  const from = w.length
  w.bytes(CODE).string(code).bytes(OK_DATA_CODE).string(id.code).bytes(NAME).string(id.name).bytes(DATE).string(bar.date)
  for (let k = 0; k < NUMERIC.length; k++) {
    const c = NUMERIC[k]
    const v = values[k]
    const places = c.price ? id.priceDecimals : 4
    w.bytes(c.key)
    if (Number.isFinite(v)) w.decimal(roundedUnits(v, places), places, v < 0)
    else w.null()
  }
  if (asOf === undefined) w.bytes(END_ROW)
  else w.bytes(AS_OF).string(asOf).bytes(END)
  return w.view(from)
}

const utf8 = new TextEncoder()

/**
 * {@link technicalItemBytes} for a row whose keys are not in column order: each column read by name
 * and written in column order (the same JSON value; `JSON.stringify` would keep the row's order).
 */
function technicalItemBytesByName(w: JsonBytes, from: number, code: string, row: TechnicalRow, priceDecimals: number, asOf?: string): Uint8Array {
  w.truncate(from)
  w.bytes(CODE).string(code).bytes(OK_DATA_CODE).string(row.code).bytes(NAME).string(row.name).bytes(DATE).string(row.date)
  for (const c of NUMERIC) w.bytes(c.key).number(row[c.name], c.price ? priceDecimals : 4)
  if (asOf === undefined) w.bytes(END_ROW)
  else w.bytes(AS_OF).string(asOf).bytes(END)
  return w.view(from)
}

/**
 * The same item for `code` as requested (another spelling of the canonical code its bytes were
 * written for): only the leading `{"code":…` differs.
 */
export function respelledItem(bytes: Uint8Array, canonical: string, code: string): Uint8Array {
  const head = utf8.encode(`{"code":${JSON.stringify(code)}`)
  const rest = bytes.subarray(CODE.length + JSON.stringify(canonical).length) // ASCII: one byte a character
  const out = new Uint8Array(head.length + rest.length)
  out.set(head)
  out.set(rest, head.length)
  return out
}
