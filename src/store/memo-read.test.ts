import { describe, expect, it } from 'vitest'
import { memoisedReader } from './memo-read'

/** An R2 stand-in that counts HEADs and GETs; `put` changes an object's etag. */
function countingBucket() {
  const objects = new Map<string, { text: string; etag: string }>()
  const calls = { head: 0, get: 0 }
  let version = 0
  const bucket = {
    put: (key: string, text: string) => void objects.set(key, { text, etag: `e${++version}` }),
    head: async (key: string) => {
      calls.head++
      const o = objects.get(key)
      return o ? { etag: o.etag } : null
    },
    get: async (key: string) => {
      calls.get++
      const o = objects.get(key)
      return o ? { etag: o.etag, text: async () => o.text } : null
    },
  }
  return { bucket: bucket as unknown as R2Bucket & typeof bucket, calls }
}

describe('memoisedReader', () => {
  const reader = (keep: number) => memoisedReader(async (obj, key) => `${key}:${await obj.text()}`, keep, 1000)

  it('parses an object once, asks whether it changed only after the recheck interval, and reads it again only when it did', async () => {
    const { bucket, calls } = countingBucket()
    const read = reader(2)
    bucket.put('a', 'one')
    expect(await read(bucket, 'a', 0)).toBe('a:one')
    expect(await read(bucket, 'a', 999)).toBe('a:one')
    expect(calls).toEqual({ head: 0, get: 1 })
    expect(await read(bucket, 'a', 1500)).toBe('a:one')
    expect(calls).toEqual({ head: 1, get: 1 })
    bucket.put('a', 'two')
    expect(await read(bucket, 'a', 3000)).toBe('a:two')
    expect(calls).toEqual({ head: 2, get: 2 })
  })

  it('keeps at most `keep` objects: with one, a second key replaces the first', async () => {
    const { bucket, calls } = countingBucket()
    const read = reader(1)
    bucket.put('a', 'x')
    bucket.put('b', 'y')
    await read(bucket, 'a', 0)
    await read(bucket, 'b', 0)
    await read(bucket, 'a', 0)
    expect(calls.get).toBe(3)
    await read(bucket, 'a', 10)
    expect(calls.get).toBe(3)
  })

  it('answers undefined for a missing object and remembers nothing', async () => {
    const { bucket, calls } = countingBucket()
    const read = reader(2)
    expect(await read(bucket, 'none', 0)).toBeUndefined()
    expect(await read(bucket, 'none', 0)).toBeUndefined()
    expect(calls.get).toBe(2)
  })
})
