/** Small JSON documents in R2 (meta/, cursors, run records). */

/** The parsed document at `key`, or undefined when there is none. */
export async function getJson<T>(bucket: R2Bucket, key: string): Promise<T | undefined> {
  const obj = await bucket.get(key)
  return obj ? ((await obj.json()) as T) : undefined
}

/** Writes `value` as JSON at `key`. */
export async function putJson(bucket: R2Bucket, key: string, value: unknown, customMetadata?: Record<string, string>): Promise<void> {
  await bucket.put(key, JSON.stringify(value), { httpMetadata: { contentType: 'application/json' }, customMetadata })
}

/** Deletes every object under `prefix` (R2 deletes up to 1000 keys per call). */
export async function deletePrefix(bucket: R2Bucket, prefix: string): Promise<number> {
  let n = 0
  for (;;) {
    const page = await bucket.list({ prefix, limit: 1000 })
    if (page.objects.length === 0) return n
    await bucket.delete(page.objects.map((o) => o.key))
    n += page.objects.length
    if (!page.truncated) return n
  }
}
