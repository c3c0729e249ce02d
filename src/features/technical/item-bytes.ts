/**
 * One /v1/technical-batch item with a freshly computed row, `{"code":…,"ok":true,"data":{…},"as_of":…}`,
 * as UTF-8 bytes: the same bytes `JSON.stringify` gives for a row built in column order
 * (technical-item-bytes.test.ts), written with src/http/json-bytes.ts, which is several times faster
 * for the live batch's 1,000 rows.
 */
import { TECHNICAL_COLUMNS, type NumericColumn, type TechnicalRow } from '../../domain/indicators/columns'
import { roundedUnits, type RowIdentity } from '../../domain/indicators/row'
import { nextValuesInto, type StepBar } from '../../domain/indicators/step'
import type { StepState } from '../../domain/indicators/step-state'
import { jsonFragment, type JsonBytes } from '../../http/json-bytes'
import { withFirstMember } from '../../http/json-splice'

/** The numeric columns in row order (a step's values' order): the key fragment written before each value, and whether it is a price level. */
const NUMERIC = TECHNICAL_COLUMNS.filter(([, kind]) => kind !== 'id').map(([name, kind]) => ({
  name: name as NumericColumn,
  key: jsonFragment(`,${JSON.stringify(name)}:`),
  price: kind === 'price',
}))

const CODE = jsonFragment('{"code":')
const OK_DATA_CODE = jsonFragment(',"ok":true,"data":{"code":')
const NAME = jsonFragment(',"name":')
const DATE = jsonFragment(',"date":')
const AS_OF = jsonFragment('},"as_of":')
const END_ROW = jsonFragment('}}')
const END = jsonFragment('}')

/** The item up to its first numeric column: the code as requested, then the row's code, name and date. */
const head = (w: JsonBytes, code: string, rowCode: string, name: string | null, date: string) =>
  w.bytes(CODE).string(code).bytes(OK_DATA_CODE).string(rowCode).bytes(NAME).string(name).bytes(DATE).string(date)

/** The item after its last numeric column. */
const tail = (w: JsonBytes, asOf: string | undefined) => (asOf === undefined ? w.bytes(END_ROW) : w.bytes(AS_OF).string(asOf).bytes(END))

/**
 * The item's bytes for a row already rounded (a row computed from the whole history), appended to
 * `w` (a view of its buffer). `priceDecimals` is what the row's price columns were rounded to; other
 * numbers are rounded to 4 decimals. Columns are written in column order, as rows are built.
 */
export function technicalItemBytes(w: JsonBytes, code: string, row: TechnicalRow, priceDecimals: number, asOf?: string): Uint8Array {
  const from = w.length
  head(w, code, row.code, row.name, row.date)
  for (const c of NUMERIC) w.bytes(c.key).number(row[c.name], c.price ? priceDecimals : 4)
  tail(w, asOf)
  return w.view(from)
}

/** A step's values, written and read at once. */
const stepped = new Float64Array(NUMERIC.length)

/**
 * The item of `bar`, the bar after `state`'s last one: nextRow's row (src/domain/indicators/step.ts),
 * written straight from the step's unrounded values, each rounded as the row rounds it (no row
 * object, no rounded double formatted again), appended to `w` (a batch writes its items one after
 * the other into one writer). `state` is left as it was.
 */
export function steppedItemBytes(w: JsonBytes, code: string, state: StepState, bar: StepBar, id: RowIdentity, asOf?: string): Uint8Array {
  const values = nextValuesInto(state, bar, stepped)
  const from = w.length
  head(w, code, id.code, id.name, bar.date)
  for (let k = 0; k < NUMERIC.length; k++) {
    const c = NUMERIC[k]
    const v = values[k]
    const places = c.price ? id.priceDecimals : 4
    w.bytes(c.key)
    if (Number.isFinite(v)) w.decimal(roundedUnits(v, places), places, v < 0)
    else w.null()
  }
  tail(w, asOf)
  return w.view(from)
}

/**
 * The same item for `code` as requested (another spelling of the canonical code its bytes were
 * written for): only the leading `{"code":…` differs.
 */
export function respelledItem(bytes: Uint8Array, canonical: string, code: string): Uint8Array {
  return withFirstMember(bytes, 'code', canonical, code)
}
