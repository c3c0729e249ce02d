/**
 * One closed session's up/down distribution (涨跌分布): `push2ex …/getTopicZDFenBu` (upstreams.md
 * §4.4). `data.fenbu` is a list of one-key objects, key = integer change bucket from -11 to 11
 * (0 unchanged, ±11 limit-up / limit-down, ±1…±10 one-percent bands), value = stocks. The answer
 * must be for the date asked, with each key once; `data: null` (a closed day, not yet final) is `empty`.
 */
import { compact } from '../../domain/dates'
import { empty, malformed } from '../errors'
import { fetchText } from '../http'
import type { ChannelContext } from '../types'
import { isObject, readDataOrRefusal } from './envelope'
import { CHANNEL } from './wire'

const UPDOWN_URL = 'https://push2ex.eastmoney.com/getTopicZDFenBu'
/** The public token and page id every client sends (upstreams.md §4.4, §4.5). */
const UT = '7eea3edcaed734bea9cbfc24409ed989'

export interface UpDownCounts {
  /** Session date `YYYY-MM-DD` (the answer's `qdate`). */
  date: string
  /** Stocks per bucket key, -11..11; keys the upstream left out are absent. */
  counts: Map<number, number>
}

export function upDownUrl(date: string): string {
  return `${UPDOWN_URL}?ut=${UT}&dpt=wz.ztzt&date=${compact(date)}`
}

/**
 * Parses one answer for `date` (`YYYY-MM-DD`). Any nonzero `rc` is a refusal (`malformed`): on
 * push2ex rc 205 is a token it does not take and rc 102 a missing or misnamed parameter, both
 * `data: null` (test/fixtures/push2/SOURCE.md), which must not read as a day without data.
 */
export function parseUpDown(text: string, date: string): UpDownCounts {
  const data = readDataOrRefusal(text, [])
  if (!data) throw empty(CHANNEL, `no up/down distribution for ${date}`)
  if (String(data.qdate) !== compact(date)) throw malformed(CHANNEL, `up/down distribution is for ${JSON.stringify(data.qdate)}, asked ${compact(date)}`)
  if (!Array.isArray(data.fenbu)) throw malformed(CHANNEL, 'up/down distribution has no fenbu list')
  const counts = new Map<number, number>()
  for (const item of data.fenbu) {
    const entries = isObject(item) ? Object.entries(item) : []
    if (entries.length !== 1) throw malformed(CHANNEL, `fenbu item is not a one-key object: ${JSON.stringify(item)}`)
    const [key, value] = entries[0]
    const k = Number(key)
    if (!/^-?\d+$/.test(key) || k < -11 || k > 11) throw malformed(CHANNEL, `fenbu key ${JSON.stringify(key)} is not a bucket from -11 to 11`)
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw malformed(CHANNEL, `fenbu count for ${key} is not a count: ${JSON.stringify(value)}`)
    if (counts.has(k)) throw malformed(CHANNEL, `fenbu names bucket ${key} twice`)
    counts.set(k, value)
  }
  if ([...counts.values()].every((n) => n === 0)) throw empty(CHANNEL, `up/down distribution for ${date} counts no stock`)
  return { date, counts }
}

export async function fetchUpDown(ctx: ChannelContext, date: string): Promise<UpDownCounts> {
  return parseUpDown(await fetchText(ctx, CHANNEL, upDownUrl(date)), date)
}
