import type { Quote } from '../domain/bar'
import { mapLimit } from '../domain/concurrency'
import type { Instrument } from '../domain/instrument'
import { unsupported } from './errors'

export interface BatchQuoteOptions {
  channel: string
  /** The upstream's code for an instrument, or nothing when it has no quote for it. */
  codeOf: (i: Instrument) => string | null | undefined
  /** Codes per request. */
  batch: number
  parallel: number
  /** Fetches and parses one batch; `wanted` maps lower-case upstream codes to instruments. */
  fetchBatch: (codes: string[], wanted: ReadonlyMap<string, Instrument>) => Promise<Map<string, Quote>>
}

/**
 * Real-time quotes from a feed that takes many codes per request (Tencent `qt`, Sina `hq`): maps
 * instruments to upstream codes (deduplicated), splits them into batches fetched a few at a time,
 * and merges the answers keyed by canonical code. Instruments the feed has no code for are absent;
 * when none is servable the channel is `unsupported`, so the failover moves on without a request.
 */
export async function batchQuotes(instruments: Instrument[], opts: BatchQuoteOptions): Promise<Map<string, Quote>> {
  const wanted = new Map<string, Instrument>()
  const codes: string[] = []
  for (const i of instruments) {
    const c = opts.codeOf(i)
    if (c && !wanted.has(c.toLowerCase())) {
      wanted.set(c.toLowerCase(), i)
      codes.push(c)
    }
  }
  if (codes.length === 0) {
    if (instruments.length === 0) return new Map()
    throw unsupported(opts.channel, `no ${opts.channel} quote for ${instruments.map((i) => i.code).join(', ')}`)
  }
  const batches: string[][] = []
  for (let k = 0; k < codes.length; k += opts.batch) batches.push(codes.slice(k, k + opts.batch))
  const parts = await mapLimit(batches, opts.parallel, (b) => opts.fetchBatch(b, wanted))
  return new Map(parts.flatMap((p) => [...p]))
}
