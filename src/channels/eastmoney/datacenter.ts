/**
 * Eastmoney's datacenter protocol (`datacenter-web …/api/data/v1/get`, upstreams.md §5.0): the
 * `{"result":{"pages","data","count"},"success","code"}` envelope and paging over a report.
 * Report-specific columns live with their report (dividends.ts).
 */
import { mapLimit } from '../../domain/concurrency'
import { malformed } from '../errors'
import { fetchText } from '../http'
import { parseJson } from '../json'
import type { ChannelContext } from '../types'
import { isObject, type JsonObject } from './envelope'
import { CHANNEL } from './wire'

export const DATACENTER_URL = 'https://datacenter-web.eastmoney.com/api/data/v1/get'

/** The datacenter's "no rows" code: a valid empty answer, not a failure. */
const EMPTY_CODE = 9201
/** Rows asked per page, pages in flight at once after the first, and a bound no report of ours comes near. */
const DATACENTER_PAGE_SIZE = 500
const PAGE_CONCURRENCY = 2
const MAX_PAGES = 100

/** One page of a report: its rows and what it says about the whole result. */
export interface DatacenterPage {
  pages: number
  count: number
  data: JsonObject[]
}

/** The v1 URL of one page of a report; `filter` is the raw `(COLUMN="value")…` text. */
export function datacenterUrl(q: { report: string; filter: string; sortColumns: string; sortTypes: string; page: number; pageSize?: number }): string {
  return (
    `${DATACENTER_URL}?reportName=${q.report}&columns=ALL&pageNumber=${q.page}&pageSize=${q.pageSize ?? DATACENTER_PAGE_SIZE}` +
    `&sortColumns=${q.sortColumns}&sortTypes=${q.sortTypes}&filter=${encodeURIComponent(q.filter)}`
  )
}

const count = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v >= 0

/**
 * Reads the datacenter envelope. Code 9201 (`返回数据为空`) is null: no rows. Any other non-zero
 * code (9501 bad report or filter, 9701 busy), or a body not of that shape, is `malformed`.
 */
export function readDatacenter(text: string): DatacenterPage | null {
  const json = parseJson(CHANNEL, text, 'datacenter answer')
  if (!isObject(json) || typeof json.code !== 'number') throw malformed(CHANNEL, 'datacenter answer has no numeric code')
  if (json.code === EMPTY_CODE) return null
  if (json.code !== 0) throw malformed(CHANNEL, `datacenter code ${json.code}: ${String(json.message ?? '')}`)
  const r = json.result
  if (!isObject(r) || !count(r.pages) || !count(r.count) || !Array.isArray(r.data)) throw malformed(CHANNEL, 'datacenter result is not {pages, count, data}')
  if (!r.data.every(isObject)) throw malformed(CHANNEL, 'datacenter row is not an object')
  return { pages: r.pages as number, count: r.count as number, data: r.data as JsonObject[] }
}

/**
 * Every row of a report: page 1 gives `pages` and `count`, pages 2..N follow with at most two in
 * flight. Each page must repeat page 1's `pages` and `count`, and the rows must add up to `count`;
 * anything else (a page gone empty, a count that moved) is `malformed`. No rows at all is [].
 */
export async function fetchDatacenterRows(ctx: ChannelContext, url: (page: number) => string): Promise<JsonObject[]> {
  const first = readDatacenter(await fetchText(ctx, CHANNEL, url(1)))
  if (!first) return []
  const { pages, count: total } = first
  if (pages < 1 || pages > MAX_PAGES) throw malformed(CHANNEL, `datacenter result has ${pages} pages`)
  const rest = await mapLimit(
    Array.from({ length: pages - 1 }, (_, i) => i + 2),
    PAGE_CONCURRENCY,
    async (n) => {
      const page = readDatacenter(await fetchText(ctx, CHANNEL, url(n)))
      if (!page) throw malformed(CHANNEL, `datacenter page ${n} of ${pages} came back empty`)
      if (page.pages !== pages || page.count !== total) throw malformed(CHANNEL, `datacenter result changed at page ${n}: ${page.count} rows in ${page.pages} pages, was ${total} in ${pages}`)
      return page.data
    }
  )
  const rows = [first.data, ...rest].flat()
  if (rows.length !== total) throw malformed(CHANNEL, `datacenter pages hold ${rows.length} rows, count says ${total}`)
  return rows
}
