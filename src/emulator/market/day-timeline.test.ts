import { describe, expect, it } from 'vitest'
import { dayTimeline } from './day-timeline'

describe('day timelines', () => {
  it('gives A-share stocks, ETFs and bonds the auction, and each host its reset', () => {
    for (const kind of ['stock', 'etf', 'bond'] as const) {
      expect(dayTimeline(kind, 'tencent')).toMatchObject({ reset: 540, auction: [555, 565], firstTrade: 565, lunch: [690, 780], close: 900, resetStamp: '09:00:00' })
      expect(dayTimeline(kind, 'sina')).toMatchObject({ reset: 540, resetStamp: null, finalStamp: '15:00:03' })
      expect(dayTimeline(kind, 'eastmoney')).toMatchObject({ reset: 555, finalStamp: '15:34:03' })
      expect(dayTimeline(kind, 'list').reset).toBe(565)
    }
  })

  it('opens indexes with the 09:25 match but without an auction of their own', () => {
    expect(dayTimeline('index', 'tencent')).toMatchObject({ reset: 540, auction: null, firstTrade: 565 })
    expect(dayTimeline('index', 'eastmoney').reset).toBe(565)
  })

  it('gives HK, US, futures and forex the last session until their open, and HK its 12:00 lunch', () => {
    expect(dayTimeline('hk', 'tencent')).toMatchObject({ reset: 570, auction: null, firstTrade: 570, lunch: [720, 780], lunchStamp: '12:00:00', finalStamp: '16:00:00' })
    expect(dayTimeline('us', 'sina')).toMatchObject({ reset: 570, lunch: null, close: 960 })
    expect(dayTimeline('future', 'sina')).toMatchObject({ reset: 570, auction: null })
    expect(dayTimeline('forex', 'list')).toMatchObject({ reset: 420, close: 1380 })
  })
})
