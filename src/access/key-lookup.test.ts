import { describe, expect, it } from 'vitest'
import { presentedKey } from './key-lookup'

describe('presentedKey', () => {
  it('reads one Bearer key, X-API-Key or ?key=; another scheme counts as no key', () => {
    expect(presentedKey({ authorization: 'Bearer mk_a' })).toBe('mk_a')
    expect(presentedKey({ authorization: 'bearer   mk_a  ' })).toBe('mk_a')
    expect(presentedKey({ authorization: 'Basic dXNlcg==' })).toBeNull()
    expect(presentedKey({ xApiKey: 'mk_a', query: ['mk_a'] })).toBe('mk_a')
  })

  it('a Bearer header without exactly one key is malformed, not "no key"', () => {
    for (const authorization of ['Bearer mk_a mk_b', 'Bearer', 'Bearer   ', 'bearer a,b c']) {
      expect(presentedKey({ authorization }), authorization).toEqual({ malformed: 'Authorization' })
    }
    expect(presentedKey({ authorization: 'Bearer k1 k2', xApiKey: 'mk_a' })).toEqual({ malformed: 'Authorization' })
  })
})
