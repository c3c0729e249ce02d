/**
 * Parsed stock histories, one copy per `Services` (its store facade): the routes that read a whole
 * history (/v1/kline-full, the stored part of /v1/kline and /v1/chip) parse a stock's object once
 * and after that only ask R2 whether it changed. Every read checks the etag (a HEAD), so a history
 * rewritten by the after-close job or a backfill is seen at once; what is saved is the body and its
 * parse, most of a /v1/kline-full call's store time. Callers must not change the history they get.
 */
import { memoisedReader } from './memo-read'
import { checkHistory } from './history'
import { historyKey } from './keys'
import type { History } from './shapes'
import { cacheKind } from '../runtime/isolate-caches'

/**
 * Histories kept at once: a long one (sh600519, since 2001) is some 6,000 bars of nine columns,
 * about 0.4 MB parsed, so 16 stay within a few MB of the isolate's 128.
 */
const KEEP = 16

export class HistoryCache {
  private read = HistoryCache.reader()

  private static reader() {
    return memoisedReader(async (obj) => checkHistory(await obj.json()), KEEP, 0)
  }

  /** The stored history of `code`, or undefined when it has not been built. */
  history(bucket: R2Bucket, code: string): Promise<History | undefined> {
    return this.read(bucket, historyKey(code))
  }

  /** Forgets the parsed histories (`Services.reset()`). */
  clear(): void {
    this.read = HistoryCache.reader()
  }
}

/** The parsed stock histories of this isolate (one copy per `Services`, its store facade). */
export const HISTORIES = cacheKind('parsed stock histories', () => new HistoryCache(), (h) => h.clear())
