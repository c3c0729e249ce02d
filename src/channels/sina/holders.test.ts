import { describe, expect, it } from 'vitest'
import { parseSymbol } from '../../domain/symbols'
import { createEmulatorFetch, setClock } from '../../emulator/control'
import { market } from '../../emulator/market/index'
import { holderCount, topHolders } from '../../emulator/market/shareholders'
import { failureKind as kind } from '../testkit'
import { fetchSinaHolders, parseSinaHolders, sinaHoldersUrl } from './holders'

// A real period block of Sina's page (2014), as quoted in a public scraper: test/fixtures/sina/SOURCE.md.
const BLOCK = Object.values(import.meta.glob('/test/fixtures/sina/stockholder-sh600815-2014-06-30.html', { query: '?raw', import: 'default', eager: true }))[0] as string
const SH600815 = parseSymbol('sh600815')

describe('Sina main-shareholder page (vCI_StockHolder)', () => {
  it('reads the real block: the period, its publication, the holder count, the average and the holder', () => {
    const s = parseSinaHolders(BLOCK, SH600815)
    expect(s.top).toEqual([
      { endDate: '2014-06-30', rank: 1, name: '厦门海翼集团有限公司', type: null, sharesType: '流通A股', shares: 393023000, ratio: 40.98, change: null, changePct: null, changeText: null, noticeDate: '2014-08-30' },
    ])
    expect(s.counts).toEqual([
      { endDate: '2014-06-30', holders: 68838, avgShares: 13932, change: null, changePct: null, avgMarketCap: null, totalMarketCap: null, totalShares: null, intervalChangePct: null, noticeDate: '2014-08-30' },
    ])
    expect(s.float).toEqual([])
  })

  it('refuses a page of another stock, rows that do not add up and periods out of order', () => {
    expect(kind(() => parseSinaHolders(BLOCK, parseSymbol('sh600519')))).toBe('malformed')
    expect(kind(() => parseSinaHolders(BLOCK.replace('id="Table1"', 'id="Table2"'), SH600815))).toBe('malformed')
    // 68838 holders × 13932 is the 959 million shares 40.98 % of which is 393 million: another count does not add up.
    expect(kind(() => parseSinaHolders(BLOCK.replace('>68838<', '>88838<'), SH600815))).toBe('malformed')
    expect(kind(() => parseSinaHolders(BLOCK.replace('>393023000<', '>3930x<'), SH600815))).toBe('malformed')
    expect(kind(() => parseSinaHolders(BLOCK.replace('<div align="center">1</div>', '<div align="center">2</div>'), SH600815))).toBe('malformed')
    const twice = BLOCK.replace('</tbody>', BLOCK.slice(BLOCK.indexOf('<tbody>') + 7, BLOCK.indexOf('</tbody>')).replaceAll('2014-06-30', '2014-09-30') + '</tbody>')
    expect(kind(() => parseSinaHolders(twice, SH600815))).toBe('malformed')
  })

  it('reads a table without periods as no shareholders', () => {
    expect(parseSinaHolders('<table id="Table1"><tbody></tbody></table>', SH600815)).toEqual({ top: [], float: [], counts: [] })
  })

  it('asks thirty periods, of A-share stocks only', () => {
    expect(sinaHoldersUrl(SH600815)).toBe('https://vip.stock.finance.sina.com.cn/corp/go.php/vCI_StockHolder/stockid/600815/displaytype/30.phtml')
    expect(kind(() => sinaHoldersUrl(parseSymbol('sh510300')))).toBe('unsupported')
  })

  it('reads the emulator\'s page of the holders Eastmoney serves', async () => {
    const now = Date.parse('2026-11-20T10:30:00+08:00')
    setClock(now)
    try {
      const s = await fetchSinaHolders({ fetch: createEmulatorFetch(market), timeoutMs: 4000 }, parseSymbol('sh600519'))
      const inst = market.byCode('sh600519')!
      const end = s.top[0].endDate
      expect(s.top.map((h) => [h.name, h.shares])).toEqual(topHolders(inst, end).map((h) => [h.name, h.shares]))
      expect(s.counts.length).toBe(12)
      for (const c of s.counts) expect(c.holders).toBe(holderCount(market, inst, c.endDate, now)!.holders)
    } finally {
      setClock(null)
    }
  })
})
