/**
 * The Eastmoney channel: `push2 ulist.np/get` for quotes, `push2his kline/get` for K-lines.
 * Serves every instrument kind and every native period (season and year included).
 */
import type { Channel } from '../types'
import { fetchKline } from './kline'
import { fetchQuotes } from './quotes'

export const eastmoney: Channel = {
  name: 'eastmoney',
  quotes: (instruments, ctx) => fetchQuotes(instruments, ctx),
  kline: (req, ctx) => fetchKline(req, ctx),
}

// Pure pieces, for tests and the emulator's round-trip checks.



