/**
 * The technicals table of one trading day (`technicals/<date>.json`): for every A-share stock, the
 * point-in-time technical columns and day factors of src/domain/stock-days.ts, as the after-close
 * job and the backfill write them. /v1/technical-batch reads a day's table once and answers a
 * thousand symbols from it; /v1/screen's factor table is assembled from it.
 *
 *   {"v":1,"date":"2026-11-20","columns":["closePrice","ma_MA_5",…],"rows":{"sh600519":["贵州茅台",1520,1511.2,…],…}}
 */
import { STOCK_DAY_COLUMNS, TECHNICAL_VALUE_COLUMNS } from '../domain/stock-days'
import { LATEST_TECHNICALS_KEY, technicalsKey } from './keys'
import { memoisedReader } from './memo-read'
import { getJson, putJson } from './r2-json'
import type { TechnicalsDay } from './shapes'
import { cacheKind } from '../runtime/isolate-caches'

export const TECHNICALS_VERSION = 1

export interface StoredTechnicals {
  v: typeof TECHNICALS_VERSION
  date: string
  columns: string[]
  /** code → [name, ...values in `columns` order]. */
  rows: Record<string, Array<string | number | null>>
}

export function technicalsDay(t: StoredTechnicals): TechnicalsDay {
  const index = new Map(t.columns.map((c, i) => [c, i + 1]))
  const technical = TECHNICAL_VALUE_COLUMNS.map((c) => [c, index.get(c)!] as const)
  const texts = new Map<string, string>()
  const items = new Map<string, Uint8Array>()
  const utf8 = new TextEncoder()
  return {
    itemBytes(code) {
      let bytes = items.get(code)
      if (bytes === undefined) {
        const json = this.rowJson(code)
        if (json === undefined) return undefined
        items.set(code, (bytes = utf8.encode(`{"code":${JSON.stringify(code)},"ok":true,"data":${json}}`)))
      }
      return bytes
    },
    rowJson(code) {
      let text = texts.get(code)
      if (text === undefined) {
        const r = Object.hasOwn(t.rows, code) ? t.rows[code] : undefined
        if (!r) return undefined
        const name = typeof r[0] === 'string' && r[0] ? r[0] : null
        let s = `{"code":${JSON.stringify(code)},"name":${JSON.stringify(name)},"date":"${t.date}"`
        for (const [c, i] of technical) s += `,"${c}":${typeof r[i] === 'number' ? r[i] : 'null'}`
        texts.set(code, (text = s + '}'))
      }
      return text
    },
    date: t.date,
    size: Object.keys(t.rows).length,
    codes: () => Object.keys(t.rows),
    row(code) {
      const r = Object.hasOwn(t.rows, code) ? t.rows[code] : undefined
      if (!r) return undefined
      return {
        name: typeof r[0] === 'string' && r[0] ? r[0] : null,
        get: (column) => {
          const i = index.get(column)
          const v = i === undefined ? undefined : r[i]
          return typeof v === 'number' ? v : null
        },
      }
    },
  }
}

/** Days' tables, each parsed once per version (one per `Services`, its store facade). */
export class TechnicalsTables {
  private read = TechnicalsTables.reader()

  private static reader() {
    return memoisedReader(async (obj) => technicalsDay((await obj.json()) as StoredTechnicals), 4)
  }

  /** A day's table; undefined when the day is not built. */
  day(bucket: R2Bucket, date: string, now = Date.now()): Promise<TechnicalsDay | undefined> {
    return this.read(bucket, technicalsKey(date), now)
  }

  /** Forgets the parsed tables (`Services.reset()`). */
  clear(): void {
    this.read = TechnicalsTables.reader()
  }
}

/** The parsed technicals tables of this isolate (one copy per `Services`, its store facade). */
export const TECHNICALS_TABLES = cacheKind('parsed technicals tables', () => new TechnicalsTables(), (t) => t.clear())

/** Builds the stored form from staged `[code, ...values]` rows and the names known for the codes. */
export function technicalsOf(date: string, rows: Iterable<Array<string | number | null>>, names: Record<string, string>): StoredTechnicals {
  const out: StoredTechnicals = { v: TECHNICALS_VERSION, date, columns: [...STOCK_DAY_COLUMNS], rows: {} }
  const sorted = [...rows].sort((a, b) => (String(a[0]) < String(b[0]) ? -1 : 1))
  for (const [code, ...values] of sorted) out.rows[String(code)] = [names[String(code)] ?? '', ...values]
  return out
}

/**
 * Stores a day's table and, when it is the newest, points the latest at it. Returns its size in
 * bytes. A job that writes one tells its `Services` (`services.store.forgetLatestTechnicals()`), so
 * that its own isolate sees a newer table at once.
 */
export async function writeTechnicals(bucket: R2Bucket, t: StoredTechnicals): Promise<number> {
  const text = JSON.stringify(t)
  await bucket.put(technicalsKey(t.date), text, { httpMetadata: { contentType: 'application/json' }, customMetadata: { rows: String(Object.keys(t.rows).length) } })
  const latest = await readLatest(bucket)
  if (!latest || latest <= t.date) {
    await putJson(bucket, LATEST_TECHNICALS_KEY, { date: t.date })
  }
  return text.length
}

const readLatest = async (bucket: R2Bucket) => (await getJson<{ date: string }>(bucket, LATEST_TECHNICALS_KEY))?.date

/** How long the pointer read is trusted. */
const LATEST_RECHECK_MS = 60_000

/**
 * The date of the newest technicals table, as this isolate last read the latest pointer (one per
 * `Services`, its store facade). The after-close job moves the pointer once a session, so a
 * blank-date call need not pay an R2 read for it each time: it is read again once a minute (an
 * isolate may go on answering live for up to a minute after the day's table is built, with rows
 * computed from the same closing prices). No table yet is not remembered (the backfill's first table
 * is seen at once).
 */
export class LatestTechnicals {
  private known: { date: string; checked: number } | undefined

  /** The date of the newest technicals table, if any. */
  async date(bucket: R2Bucket, now = Date.now()): Promise<string | undefined> {
    const k = this.known
    if (k && now >= k.checked && now - k.checked < LATEST_RECHECK_MS) return k.date
    const date = await readLatest(bucket)
    this.known = date === undefined ? undefined : { date, checked: now }
    return date
  }

  /** Forgets the remembered pointer (a job that wrote a table, `Services.reset()`, tests). */
  forget(): void {
    this.known = undefined
  }
}

/** The latest technicals date as this isolate last read it (one per `Services`, its store facade). */
export const LATEST_TECHNICALS = cacheKind('latest technicals date', () => new LatestTechnicals(), (l) => l.forget())
