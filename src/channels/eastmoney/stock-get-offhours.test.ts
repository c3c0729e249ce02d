import { describe, expect, it } from 'vitest'
import { parseSymbol } from '../../domain/symbols'
import { parseStockGet } from './stock-get'
import captured600000 from '../../../test/fixtures/push2/stock-get-sh600000-2022-02-11-155951.json?raw'
import captured300760 from '../../../test/fixtures/push2/stock-get-sz300760-push2delay-2026-08-19-153445.json?raw'
import captured127007 from '../../../test/fixtures/push2/stock-get-sz127007-2022-03-01-153403.json?raw'

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

// A convertible bond's stock/get answer after the close of 2022-03-01 (f86 15:34:03, f292 5). The
// capture kept `data` only (test/fixtures/push2/SOURCE.md); it goes back into the envelope here.
describe('stock/get of a convertible bond after the close (captured answer)', () => {
  const text = `{"rc":0,"rt":4,"lt":1,"full":1,"data":${captured127007}}`
  const parse = () => parseStockGet(text, parseSymbol('sz127007'), Date.parse('2022-03-01T15:34:03+08:00'))

  it('keeps the session and the closing book, prices to the thousandth', () => {
    const { book, snapshot } = parse()
    expect(snapshot).toMatchObject({
      time: '2022-03-01 15:34:03', status: 'closed', last: 146.4, pre_close: 144, open: 144.3, high: 154.8, low: 142.98,
      change: 2.4, change_pct: 1.67, volume: 939_722, outer_volume: 472_978, inner_volume: 466_744, avg_price: 149.011,
      limit_up: null, limit_down: null, order_imbalance: 40.28,
    })
    expect(book.bids[0]).toEqual([146.4, 2609])
    expect(book.asks).toEqual([[146.451, 611], [146.479, 678], [146.855, 14], [146.9, 1], [146.98, 23]])
  })

  it('adds up: outer + inner is the volume, and f47 counts lots of ten bonds (amount ÷ lots ÷ 10 is f71)', () => {
    const data = JSON.parse(captured127007)
    expect(data.f49 + data.f161).toBe(data.f47)
    expect(data.f48 / data.f47 / 10).toBeCloseTo(data.f71, 2)
    expect(data.f116 / data.f43).toBeCloseTo(data.f84, 0)
  })
})

// A push2delay stock/get answer after the close of 2026-08-19 (f86 15:34:45), with few fields,
// cross-checked by its source against Sina and Tencent lines of the same minutes.
describe('stock/get after the close from push2delay (captured answer)', () => {
  it('keeps the session line; its amount carries cents, its volume is in lots', () => {
    const { snapshot } = parseStockGet(captured300760, parseSymbol('sz300760'), Date.parse('2026-08-19T15:34:45+08:00'))
    expect(snapshot).toMatchObject({
      time: '2026-08-19 15:34:45', status: 'closed', last: 150.63, pre_close: 150.55, open: 151.2, high: 151.65, low: 149.08,
      change: 0.08, change_pct: 0.05, volume: 66_809, amount: 100_467.06, turnover: 0.55, volume_ratio: 0.95,
    })
    const d = JSON.parse(captured300760).data
    const vwap = d.f48 / (d.f47 * 100)
    expect(vwap).toBeGreaterThan(d.f45)
    expect(vwap).toBeLessThan(d.f44)
  })
})
