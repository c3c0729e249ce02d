import type { Channel } from '../types'
import { fetchKline } from './kline'
import { fetchQuotes } from './quotes'

/** Sina: `hq.sinajs.cn` quotes (GBK), getKLineData bars and `qfq.js` factors; Referer required throughout. */
export const sina: Channel = {
  name: 'sina',
  quotes: fetchQuotes,
  kline: fetchKline,
}

// Pure pieces, for tests and the emulator's round-trip checks.






