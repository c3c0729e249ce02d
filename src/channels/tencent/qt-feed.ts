import { quoteCadenceMs } from '../cadence'
import type { LineFeed } from '../types'

/** Codes per `qt.gtimg.cn` request (easyquotation's batch size). */
export const QUOTE_BATCH = 60

/** Tencent's real-time quote lines, `qt.gtimg.cn/q=a,b,c` (GBK): quotes, full lines, books. */
export const QT_FEED: LineFeed = {
  channel: 'tencent',
  prefix: 'v_',
  url: (codes) => `https://qt.gtimg.cn/q=${codes.join(',')}`,
  encoding: 'gbk',
  batch: QUOTE_BATCH,
  cadenceMs: quoteCadenceMs,
}
