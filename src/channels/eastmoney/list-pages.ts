import { walkRest } from '../page-walk'
import { empty, malformed } from '../errors'
import { fetchText } from '../http'
import type { ChannelContext } from '../types'
import { CHANNEL } from './wire'

/** One parsed `clist/get` page: the total it claims and its rows. */
export interface ListPage<T> {
  total: number
  rows: T[]
}

/**
 * Every row of a `clist/get` listing: page 1 gives the total and the server's page size, pages
 * 2..N follow two at a time. Every page must claim the same total and the rows (each key once)
 * must come to it, else `malformed`; nothing at all is `empty`.
 */
export async function fetchAllPages<T>(
  ctx: ChannelContext,
  what: string,
  urlOf: (page: number) => string,
  parse: (text: string) => ListPage<T>,
  keyOf: (row: T) => string
): Promise<T[]> {
  const startedAt = Date.now()
  const first = parse(await fetchText(ctx, CHANNEL, urlOf(1)))
  if (first.rows.length === 0) throw empty(CHANNEL, `${what} is empty`)
  const pages = Math.ceil(first.total / first.rows.length)
  const rest = await walkRest(CHANNEL, Array.from({ length: Math.max(0, pages - 1) }, (_, i) => i + 2), startedAt, async (pn) => {
    const page = parse(await fetchText(ctx, CHANNEL, urlOf(pn)))
    if (page.total !== first.total) throw malformed(CHANNEL, `${what} total changed from ${first.total} to ${page.total} at page ${pn}`)
    return page.rows
  })
  const byKey = new Map<string, T>()
  for (const r of [first.rows, ...rest].flat()) if (!byKey.has(keyOf(r))) byKey.set(keyOf(r), r)
  if (byKey.size !== first.total) throw malformed(CHANNEL, `${what} claims ${first.total} rows, gave ${byKey.size}`)
  return [...byKey.values()]
}
