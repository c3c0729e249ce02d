import { describe, expect, it } from 'vitest'
import { parseSymbol } from '../../domain/symbols'
import { parseStockGet } from './stock-get'
import captured600000 from '../../../test/fixtures/push2/stock-get-sh600000-2022-02-11-155951.json?raw'

// A real stock/get answer (fltt=2) taken after the close of 2022-02-11, f292 5:
// test/fixtures/push2/SOURCE.md.
describe('stock/get after the close (captured answer)', () => {
  it('keeps the session: last, volume, time of the last update and the closing five-level book', () => {
    const { book, snapshot } = parseStockGet(captured600000, parseSymbol('sh600000'), Date.parse('2022-02-11T15:59:51+08:00'))
    expect(snapshot).toMatchObject({
      time: '2022-02-11 15:59:51', status: 'closed', last: 8.74, pre_close: 8.69, open: 8.7, high: 8.76, low: 8.67,
      change: 0.05, change_pct: 0.58, volume: 376_829, outer_volume: 221_532, inner_volume: 155_297,
    })
    expect(book.bids).toEqual([[8.73, 3553], [8.72, 4841], [8.71, 1406], [8.7, 6429], [8.69, 1644]])
    expect(book.asks).toEqual([[8.74, 8531], [8.75, 10413], [8.76, 11189], [8.77, 5681], [8.78, 7546]])
    // The closing book is the one the host's own 委比 was computed from.
    expect(snapshot.order_imbalance).toBe(-41.62)
    expect(JSON.parse(captured600000).data.f292).toBe(5)
  })
})
