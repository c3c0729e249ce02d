import { describe, expect, it } from 'vitest'
import { countingBucket } from './counting-bucket'
import { memoisedReader } from './memo-read'

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
