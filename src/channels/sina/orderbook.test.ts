import { afterEach, describe, expect, it } from 'vitest'
import { parseSymbol } from '../../domain/symbols'
import { createEmulatorFetch, setClock } from '../../emulator/control'
import { market } from '../../emulator/market'
import { failureKind, fakeContext, gbk } from '../testkit'
import { fetchSinaBook, parseSinaBook } from './orderbook'

// The 33-field sample of upstreams.md §1.2.1 (invented values): volume before price, in shares.
const PINGAN =
  'var hq_str_sz000001="平安银行,11.20,11.15,11.32,11.40,11.10,11.31,11.32,85643210,965432100.500,21300,11.31,45200,11.30,12000,11.29,8800,11.28,30100,11.27,9900,11.32,15600,11.33,22000,11.34,5400,11.35,61000,11.36,2025-01-02,15:00:03,00";'
const pingan = parseSymbol('sz000001')

const edit = (k: number, v: string) => {
  const f = PINGAN.slice(PINGAN.indexOf('"') + 1, -2).split(',')
  f[k] = v
  return `var hq_str_sz000001="${f.join(',')}";`
}

// Real hq.sinajs.cn lines (2026-05-13 close; test/fixtures/sina/SOURCE.md).
const CAPTURED = Object.values(import.meta.glob('/test/fixtures/sina/hq-sh600519-sz000858-2026-05-13.txt', { query: '?raw', import: 'default', eager: true }))[0]

describe('parseSinaBook', () => {
  it('reads the book of a captured sh line (34 fields, trailing comma)', () => {
    expect(parseSinaBook(CAPTURED, parseSymbol('sh600519'))).toEqual({
      code: 'sh600519', time: '2026-05-13 15:00:03', last: 1344.09, preClose: 1354.55, halted: false, traded: true,
      bids: [[1344.05, 1], [1344.03, 3], [1344.02, 9], [1344.01, 4], [1344, 17]],
      asks: [[1344.09, 1], [1344.1, 2], [1344.12, 2], [1344.13, 21], [1344.24, 2]],
    })
  })

  it('rounds an odd-lot level of a captured sz line to whole lots', () => {
    // ask1 of 000858 is 14628 shares: odd lots rest on the sell side, the book counts lots.
    const book = parseSinaBook(CAPTURED, parseSymbol('sz000858'))
    expect(book.bids[0]).toEqual([89.14, 5])
    expect(book.asks[0]).toEqual([89.15, 146])
  })

  it('reads volume-before-price pairs and converts shares to lots', () => {
    expect(parseSinaBook(PINGAN, pingan)).toEqual({
      code: 'sz000001', time: '2025-01-02 15:00:03', last: 11.32, preClose: 11.15, halted: false, traded: true,
      bids: [[11.31, 213], [11.3, 452], [11.29, 120], [11.28, 88], [11.27, 301]],
      asks: [[11.32, 99], [11.33, 156], [11.34, 220], [11.35, 54], [11.36, 610]],
    })
  })

  it('is empty for an empty (halted) line, malformed for a book that cannot be right', () => {
    expect(failureKind(() => parseSinaBook('var hq_str_sz000001="";', pingan))).toBe('empty')
    expect(failureKind(() => parseSinaBook(PINGAN, parseSymbol('sh600519')))).toBe('empty')
    expect(failureKind(() => parseSinaBook(edit(11, '11.40'), pingan))).toBe('malformed')
    expect(failureKind(() => parseSinaBook(edit(13, '11.315'), pingan))).toBe('malformed')
    expect(failureKind(() => parseSinaBook(edit(30, '20250102'), pingan))).toBe('malformed')
    expect(failureKind(() => parseSinaBook(edit(20, '-'), pingan))).toBe('malformed')
  })
})

describe('fetchSinaBook', () => {
  afterEach(() => setClock(null))

  it('sends the Referer and decodes GBK', async () => {
    const { ctx, calls } = fakeContext(() => ({ body: gbk(PINGAN + '\n') }))
    expect((await fetchSinaBook(ctx, pingan)).bids[0]).toEqual([11.31, 213])
    expect(calls[0]).toMatchObject({ url: 'https://hq.sinajs.cn/list=sz000001', headers: { referer: 'https://finance.sina.com.cn/' } })
  })

  it('reads the emulator\'s line: the same book Tencent\'s line shows', async () => {
    setClock(Date.parse('2026-11-20T10:30:00+08:00'))
    const ctx = { fetch: createEmulatorFetch(market), timeoutMs: 2000 }
    const b = await fetchSinaBook(ctx, pingan)
    const q = market.live(market.byCode('sz000001')!, Date.parse('2026-11-20T10:30:00+08:00'))
    expect(b.bids).toEqual(q.book.bids.map(([p, v]) => [p, v / 100]))
    expect(b.asks).toEqual(q.book.asks.map(([p, v]) => [p, v / 100]))
  })
})
