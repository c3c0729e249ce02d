import { describe, expect, it } from 'vitest'
import { canonicalIp } from './ip'

describe('canonicalIp', () => {
  it.each([
    ['1.2.3.4', '1.2.3.4'],
    [' 10.0.0.1 ', '10.0.0.1'],
    ['2001:DB8::1', '2001:db8::1'],
    ['2001:db8:0:0:0:0:0:1', '2001:db8::1'],
    ['::ffff:192.0.2.7', '192.0.2.7'],
    ['::1', '::1'],
  ])('%s → %s', (raw, want) => expect(canonicalIp(raw)).toBe(want))

  it.each(['', '1.2.3', '256.1.1.1', '01.2.3.4', '1.2.3.4.5', 'example.org', '2001:db8::g', ':::', '1.2.3.4/24'])('refuses %j', (raw) => {
    expect(canonicalIp(raw)).toBeNull()
  })
})
