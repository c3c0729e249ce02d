import type { ScreenMarket } from '../data/factors'
import { getJson, putJson } from './r2-json'
import { factorTableKey, latestFactorsKey } from './keys'
import type { LoadedFactorTable } from './shapes'
import { cacheKind } from '../runtime/isolate-caches'

/**
 * One market's screening factors on one date, as the after-close job stores it: columns, not rows,
 * so a table of 5,500 stocks × 80 factors is one compact document and a column is one array.
 * `null` where a stock has no value (a loss-maker's PE, a new listing's MA250).
 */
export interface StoredFactorTable {
  market: ScreenMarket
  date: string
  /** When the job built it (ISO). */
  built_at: string
  /**
   * False for a table taken from a list while its session was still open (HK and US only: a first
   * start or backfill during the session builds one so a fresh store can screen at all); the
   * after-close run of that date replaces it. Absent = final.
   */
  final?: boolean
  codes: string[]
  names: string[]
  columns: Record<string, Array<number | null>>
}

function loadFactorTable(t: StoredFactorTable): LoadedFactorTable {
  const cache = new Map<string, Float64Array>()
  const column = (name: string): Float64Array => {
    let col = cache.get(name)
    if (!col) {
      const raw = t.columns[name] ?? []
      col = new Float64Array(t.codes.length).fill(NaN)
      for (let i = 0; i < col.length; i++) {
        const v = raw[i]
        if (typeof v === 'number' && Number.isFinite(v)) col[i] = v
      }
      cache.set(name, col)
    }
    return col
  }
  return {
    market: t.market,
    date: t.date,
    codes: t.codes,
    names: t.names,
    size: t.codes.length,
    column,
    value: (factor, i) => {
      const v = column(factor)[i]
      return v === v ? v : null
    },
    has: (factor) => Object.hasOwn(t.columns, factor),
  }
}

/**
 * The factor tables of this isolate, parsed once per version: a table changes once a day, and
 * parsing one costs tens of milliseconds. `Services` holds one (`services.store.factorTable`) and
 * forgets it on reset.
 */
class FactorTables {
  private readonly memo = new Map<string, { etag: string; table: LoadedFactorTable }>()

  /**
   * The latest factor table of `market` (or the one of `date`), parsed once per version.
   * Undefined when the job has not built one yet.
   */
  async read(bucket: R2Bucket, market: ScreenMarket, date?: string): Promise<LoadedFactorTable | undefined> {
    const day = date ?? (await getJson<{ date: string }>(bucket, latestFactorsKey(market)))?.date
    if (!day) return undefined
    const key = factorTableKey(market, day)
    const head = await bucket.head(key)
    if (!head) return undefined
    const known = this.memo.get(key)
    if (known && known.etag === head.etag) return known.table
    const obj = await bucket.get(key)
    if (!obj) return undefined
    const table = loadFactorTable((await obj.json()) as StoredFactorTable)
    if (this.memo.size >= 8) this.memo.clear()
    this.memo.set(key, { etag: obj.etag, table })
    return table
  }

  clear(): void {
    this.memo.clear()
  }
}

/** The factor tables of this isolate (one copy per `Services`, its store facade). */
export const FACTOR_TABLES = cacheKind('factor tables', () => new FactorTables(), (t) => t.clear())

/** One factor table read without keeping it (the jobs' tests read what a job wrote). */
export const readFactorTable = (bucket: R2Bucket, market: ScreenMarket, date?: string) => new FactorTables().read(bucket, market, date)

/** Whether the table of `market` and `date` is stored and final (not a provisional in-session one). */
export async function hasFinalFactorTable(bucket: R2Bucket, market: ScreenMarket, date: string): Promise<boolean> {
  const head = await bucket.head(factorTableKey(market, date))
  return head !== null && head.customMetadata?.final !== 'false'
}

/** Stores a factor table and, when it is the newest, points the market's latest at it; returns its size in characters. */
export async function writeFactorTable(bucket: R2Bucket, t: StoredFactorTable): Promise<number> {
  const body = JSON.stringify(t)
  await bucket.put(factorTableKey(t.market, t.date), body, { httpMetadata: { contentType: 'application/json' }, customMetadata: { rows: String(t.codes.length), final: String(t.final !== false) } })
  const latest = await getJson<{ date: string }>(bucket, latestFactorsKey(t.market))
  if (!latest || latest.date <= t.date) await putJson(bucket, latestFactorsKey(t.market), { date: t.date })
  return body.length
}
