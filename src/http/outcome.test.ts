import { describe, expect, it } from 'vitest'
import type { Attempt } from '../channels/failover'
import { allSaidNothing, describeAttempts, FailureCodeSchema, upstreamFailure, upstreamFailureBody } from './outcome'

const empty: Attempt = { channel: 'eastmoney', kind: 'empty', message: 'eastmoney: no rows' }
const unsupported: Attempt = { channel: 'sina', kind: 'unsupported', message: 'sina: does not serve HK stocks' }
const down: Attempt = { channel: 'tencent', kind: 'http', message: 'tencent: HTTP 502' }

describe('upstreamFailure', () => {
  it('says NO_DATA only when every channel answered that it has nothing', () => {
    expect(upstreamFailure([empty, unsupported]).code).toBe('NO_DATA')
    expect(upstreamFailure([empty, down]).code).toBe('UPSTREAM_UNAVAILABLE')
    // No channel asked at all is not "nothing there".
    expect(allSaidNothing([])).toBe(false)
    expect(upstreamFailure([]).code).toBe('UPSTREAM_UNAVAILABLE')
  })

  it('names each channel once, with the subject first when given', () => {
    expect(describeAttempts([empty, down])).toBe('eastmoney: no rows; tencent: HTTP 502')
    expect(upstreamFailure([down], 'sh600519').error).toBe('sh600519: tencent: HTTP 502')
    expect(describeAttempts([])).toBe('no channel serves this request')
  })

  it('builds the whole ok:false body with the route\'s empty data', () => {
    expect(upstreamFailureBody([down], 'index quotes', null)).toEqual({ ok: false, source: 'none', data: null, code: 'UPSTREAM_UNAVAILABLE', error: 'index quotes: tencent: HTTP 502' })
  })

  it('lists every failure code in the envelope schema, and no other', () => {
    expect(FailureCodeSchema.safeParse('NOT_BUILT').success).toBe(true)
    expect(FailureCodeSchema.safeParse('SOMETHING_ELSE').success).toBe(false)
  })
})
