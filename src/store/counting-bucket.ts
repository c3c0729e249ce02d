/**
 * An R2 stand-in for unit tests of readers that keep what they read: it holds texts, counts HEADs
 * and GETs, and gives each `put` a new etag.
 */
export function countingBucket() {
  const objects = new Map<string, { text: string; etag: string }>()
  const calls = { head: 0, get: 0 }
  let version = 0
  const bucket = {
    put: (key: string, text: string) => void objects.set(key, { text, etag: `e${++version}` }),
    delete: (key: string) => void objects.delete(key),
    head: async (key: string) => {
      calls.head++
      const o = objects.get(key)
      return o ? { etag: o.etag } : null
    },
    get: async (key: string) => {
      calls.get++
      const o = objects.get(key)
      return o ? { etag: o.etag, text: async () => o.text, json: async () => JSON.parse(o.text) as unknown } : null
    },
  }
  return { bucket: bucket as unknown as R2Bucket & typeof bucket, calls }
}
