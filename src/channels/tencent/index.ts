import type { Channel } from '../types'
import { fetchKline } from './kline'
import { fetchQuotes } from './quotes'

/** Tencent: `qt.gtimg.cn` quotes (GBK) and the ifzq K-line family (JSON, on `proxy.finance.qq.com/ifzqgtimg`). */
export const tencent: Channel = {
  name: 'tencent',
  quotes: fetchQuotes,
  kline: fetchKline,
}

// Pure pieces, for tests and the emulator's round-trip checks.



