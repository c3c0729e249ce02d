/**
 * Large R2 objects parsed once per isolate: a read within `recheckMs` of the last check reuses the
 * parsed value; after that one HEAD asks whether the object changed (a backfill may rewrite a
 * day) and only a new etag is read and parsed again.
 */
export function memoisedReader<T>(parse: (obj: R2ObjectBody, key: string) => Promise<T>, keep: number, recheckMs = 60_000) {
  const memo = new Map<string, { etag: string; value: T; checked: number }>()
  return async (bucket: R2Bucket, key: string, now = Date.now()): Promise<T | undefined> => {
    const known = memo.get(key)
    if (known && now - known.checked < recheckMs) return known.value
    if (known) {
      const head = await bucket.head(key)
      if (head?.etag === known.etag) {
        known.checked = now
        return known.value
      }
    }
    const obj = await bucket.get(key)
    if (!obj) return undefined
    // Dropped before the parse, so a large object and the one it replaces are not held at once
    // (a whole market's indicator states are some 20 MB of text).
    memo.delete(key)
    if (memo.size >= keep) memo.clear()
    const value = await parse(obj, key)
    memo.set(key, { etag: obj.etag, value, checked: now })
    return value
  }
}
