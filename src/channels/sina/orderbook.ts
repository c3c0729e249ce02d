/**
 * One A-share instrument's five-level book from Sina's quote line (`hq.sinajs.cn/list=sh600519`,
 * upstreams.md §1.2.1): fields 10–19 are bid volume/price pairs (volume **before** price, in
 * shares), 20–29 the asks; 3 last, 2 previous close, 30 date, 31 time, 32 status (`00`; `03`
 * suspended). An empty line (an unknown code) is `empty`, and the failover asks the next channel.
 * Before the first trade of a session the line prints its last price as 0.000 or the previous
 * close (read as the previous close), and in the opening auction bid (6) = ask (7) = the
 * indicative price (taken as `last`), bid1 = ask1 its matched volume (fixtures in test/fixtures/sina).
 */
import type { Instrument } from '../../domain/instrument'
import { bookProblem, BOOK_LEVELS, isAuctionBook, levelOf, type Level, type OrderBook } from '../../domain/orderbook'
import { empty, malformed, unsupported } from '../errors'
import type { ChannelContext } from '../types'
import { num, sessionOf } from '../validate'
import { isAShare } from './codes'
import { CHANNEL } from './fetch'
import { HQ_FEED } from './hq-feed'
import { fetchLines } from '../live-lines'
import { statements } from './quotes'

const BOOK_FIELDS = { open: 1, preClose: 2, last: 3, high: 4, low: 5, volume: 8, bids: 10, asks: 20, date: 30, time: 31, status: 32 } as const
const MIN_FIELDS = BOOK_FIELDS.time + 1

/** Shares to lots; Sina's book volumes are whole lots in shares. */
const lotsOf = (shares: number) => Math.round(shares / 100)

function levels(f: string[], from: number, what: string): Level[] {
  const out: Level[] = []
  for (let k = 0; k < BOOK_LEVELS; k++) {
    const at = from + 2 * k
    out.push(levelOf(num(CHANNEL, f[at + 1], `${what}${k + 1} price`), lotsOf(num(CHANNEL, f[at], `${what}${k + 1} volume`))))
  }
  return out
}

/** Parses a decoded answer for `inst`. */
export function parseSinaBook(text: string, inst: Instrument): OrderBook {
  const record = statements(text).find(([name]) => name === inst.code)
  if (!record) throw empty(CHANNEL, `no quote line for ${inst.code}`)
  if (record[1] === '') throw empty(CHANNEL, `${inst.code} has an empty line (an unknown code)`)
  const f = record[1].split(',')
  if (f.length < MIN_FIELDS) throw malformed(CHANNEL, `${inst.code}: ${f.length} fields, need ${MIN_FIELDS}`)
  const date = f[BOOK_FIELDS.date]
  const time = f[BOOK_FIELDS.time]
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || !/^\d{2}:\d{2}:\d{2}$/.test(time)) throw malformed(CHANNEL, `bad date/time ${date} ${time} for ${inst.code}`)
  const bids = levels(f, BOOK_FIELDS.bids, 'bid')
  const asks = levels(f, BOOK_FIELDS.asks, 'ask')
  const n = (k: keyof typeof BOOK_FIELDS) => num(CHANNEL, f[BOOK_FIELDS[k]], `${k} of ${inst.code}`)
  const preClose = n('preClose')
  const status = f[BOOK_FIELDS.status]
  const { halted, traded, last } = sessionOf({ open: n('open'), high: n('high'), low: n('low'), volume: n('volume'), preClose, last: n('last'), suspended: status !== undefined && status !== '' && status !== '00' })
  const auction = isAuctionBook({ bids, asks }, traded)
  const problem = bookProblem({ bids, asks }, auction)
  if (problem) throw malformed(CHANNEL, `${inst.code} book: ${problem}`)
  return { code: inst.code, time: `${date} ${time}`, last: auction ? bids[0][0]! : last, preClose, bids, asks, halted, traded }
}

/** The book of one sh/sz/bj instrument. */
export async function fetchSinaBook(ctx: ChannelContext, inst: Instrument): Promise<OrderBook> {
  if (!isAShare(inst)) throw unsupported(CHANNEL, `the five-level line is for sh/sz/bj codes, not ${inst.code}`)
  return parseSinaBook(await fetchLines(ctx, HQ_FEED, [inst.code]), inst)
}
