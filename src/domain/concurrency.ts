/**
 * Maps over items with at most `limit` calls in flight; results keep the input order. Workers
 * allow six simultaneous outbound connections, so fan-out to upstreams goes through this.
 * After the first failure no new call starts, and that failure is what rejects.
 */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  // Most calls map one item (a quote of one symbol, a batch of one request): no workers needed.
  if (items.length === 1) return [await fn(items[0], 0)]
  const out = new Array<R>(items.length)
  let next = 0
  let failed = false
  const worker = async () => {
    while (!failed && next < items.length) {
      const i = next++
      try {
        out[i] = await fn(items[i], i)
      } catch (e) {
        failed = true
        throw e
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  return out
}
