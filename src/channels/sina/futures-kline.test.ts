import { describe, expect, it } from 'vitest'
import { ChannelError } from '../errors'
import { parseFuturesDaily } from './futures-kline'

// Row values from the verbatim hq.sinajs.cn capture of nf_RB0 on 2026-09-01 (a public futures
// board project's test suite: open 3197, high 3200, low 3158, last 3174, volume 710896, open
// interest 1290303); the row shape (string values under d/o/h/l/c/v/p/s) is what akshare's
// futures_zh_daily_sina and other clients of getDailyKLine read.
const RB0 =
  'var _=([{"d":"2026-08-31","o":"3180.000","h":"3205.000","l":"3170.000","c":"3186.000","v":"652310","p":"1301220.000","s":"3186.000"},' +
  '{"d":"2026-09-01","o":"3197.000","h":"3200.000","l":"3158.000","c":"3174.000","v":"710896","p":"1290303.000","s":"3175.000"}]);'

const kind = (f: () => unknown) => {
  try {
    f()
  } catch (e) {
    return e instanceof ChannelError ? e.kind : 'other'
  }
  return 'none'
}

describe('parseFuturesDaily', () => {
  it('reads Sina futures day rows oldest first, volume in contracts, no amount', () => {
    const bars = parseFuturesDaily(RB0)
    expect(bars).toHaveLength(2)
    expect(bars[1]).toEqual({ date: '2026-09-01', open: 3197, close: 3174, high: 3200, low: 3158, volume: 710896, amount: null, turnover: null })
  })

  it('takes the payload between =( and the last ) whatever the variable name', () => {
    expect(parseFuturesDaily(RB0.replace('var _=', 'var _RB02026_9_1='))).toHaveLength(2)
  })

  it('calls an unknown symbol and an empty list empty', () => {
    expect(kind(() => parseFuturesDaily('var _=(null);'))).toBe('empty')
    expect(kind(() => parseFuturesDaily('var _=([]);'))).toBe('empty')
  })

  it('refuses what does not add up', () => {
    expect(kind(() => parseFuturesDaily('<html>busy</html>'))).toBe('malformed')
    expect(kind(() => parseFuturesDaily('var _=([{"d":"2026-09-01","o":"x"}]);'))).toBe('malformed')
    expect(kind(() => parseFuturesDaily('var _=([{"d":"20260901","o":"1","h":"1","l":"1","c":"1","v":"1"}]);'))).toBe('malformed')
    // high below low
    expect(kind(() => parseFuturesDaily('var _=([{"d":"2026-09-01","o":"3","h":"1","l":"2","c":"3","v":"1"}]);'))).toBe('malformed')
  })
})

describe('parseFuturesDaily on a captured answer', () => {
  // IF2606 (CFFEX) day rows of 2026-03-17/18 behind Sina's script comment (test/fixtures/sina/SOURCE.md):
  // open interest `p` without decimals, settlement `s` written 0.000.
  const BODY = Object.values(import.meta.glob('/test/fixtures/sina/futures-daily-IF2606-2026-03-18.txt', { query: '?raw', import: 'default', eager: true }))[0] as string
  it('reads the rows; volume in contracts, no amount', () => {
    expect(parseFuturesDaily(BODY)).toEqual([
      { date: '2026-03-17', open: 4600, close: 4557.8, high: 4648.6, low: 4556.6, volume: 44_272, amount: null, turnover: null },
      { date: '2026-03-18', open: 4578, close: 4569.6, high: 4582.2, low: 4529.6, volume: 43_797, amount: null, turnover: null },
    ])
    // Prices on IF's 0.2 tick.
    for (const p of [4648.6, 4556.6, 4557.8, 4582.2, 4529.6, 4569.6]) expect(Math.round(p * 5) / 5).toBeCloseTo(p, 9)
  })
})
