import { describe, expect, it } from 'vitest'
import { clockSweep, disagreements, INSTANTS, zeroPrices } from './clock-sweep'

// The first half of the grid (split in two files so the pool runs them side by side).
clockSweep('clock sweep: a holiday and a trading day until lunch', INSTANTS.slice(0, 6))

describe('the sweep\'s checks', () => {
  it('find a price of 0 as a number or a string, in a field or a book level, and nothing else', () => {
    expect(zeroPrices({ data: { last: 0, volume: 0, bids: [[0, 3], [null, 0]], bars: [{ open: '0.00', amount: '0.00' }], limit_up: 0 } })).toEqual([
      '.data.last', '.data.bids[0][0]', '.data.bars[0].open',
    ])
  })

  it('find a wrong session date, a halted stock that traded and a zero price', () => {
    const at = INSTANTS.find((i) => i.name === 'trading day 02:00')!
    const answers = new Map([
      ['/v1/quote?code=sh600519,hk00700', { status: 200, ms: 0, body: { ok: true, data: { sh600519: [{ date: '2026-11-20', open: '0.00', last: '10', high: '10', low: '10', volume: '0' }] } } }],
      ['/v1/snapshot?code=sh600519', { status: 200, ms: 0, body: { ok: true, data: { status: 'halted', time: '2026-11-19 15:00:00', volume: 5, last: 10, open: 10, high: 10, low: 10, pre_close: 10, limit_up: 11, limit_down: 9 } } }],
      ['/v1/changedist?', { status: 200, ms: 0, body: { ok: false, code: 'NO_DATA', data: null } }],
    ])
    const found = disagreements(at, answers).join('\n')
    expect(found).toMatch(/price 0 at .*sh600519\[0\]\.open/)
    expect(found).toMatch(/quote: newest bar 2026-11-20, the latest session is 2026-11-19/)
    expect(found).toMatch(/snapshot sh600519: halted with volume 5/)
    expect(found).toMatch(/changedist\?: ok:false NO_DATA/)
  })
})
