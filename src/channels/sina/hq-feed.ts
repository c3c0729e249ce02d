import { quoteCadenceMs } from '../cadence'
import type { LineFeed } from '../types'
import { CHANNEL, SINA_HEADERS } from './fetch'

/** Codes per `hq.sinajs.cn` request (easyquotation's batch size). */
export const QUOTE_BATCH = 800

/** Sina's real-time quote lines, `hq.sinajs.cn/list=a,b,c` (GBK, Referer required): quotes and books. */
export const HQ_FEED: LineFeed = {
  channel: CHANNEL,
  prefix: 'var hq_str_',
  url: (codes) => `https://hq.sinajs.cn/list=${codes.join(',')}`,
  headers: SINA_HEADERS,
  encoding: 'gbk',
  batch: QUOTE_BATCH,
  cadenceMs: quoteCadenceMs,
}
