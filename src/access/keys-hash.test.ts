// hashKey and generateKey pinned to the vectors src/cli/key-lib.test.mjs pins for the `npm run key`
// copies: together the two tests prove a key made by the CLI hashes to the KV key the worker reads.
import { describe, expect, it } from 'vitest'
import { generateKey, hashKey, kvKeyOf } from './keys'

const VECTORS: [string, string][] = [
  ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
  ['mk_ABCDEFGHIJKLMNOPQRSTUVWXYZ012345', '35978ed3894b5310aea60edae983b565e37475a68093e62765f73daa60f1078e'],
]

describe('key hashing shared with the CLI', () => {
  it('hashKey matches the SHA-256 vectors', async () => {
    for (const [input, hex] of VECTORS) expect(await hashKey(input)).toBe(hex)
  })

  it('generateKey has the format the CLI produces', () => {
    expect(generateKey()).toMatch(/^mk_[A-Za-z0-9]{32}$/)
  })

  it('kvKeyOf', () => expect(kvKeyOf('ab')).toBe('key:ab'))
})
