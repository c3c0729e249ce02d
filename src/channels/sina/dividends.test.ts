import { describe, expect, it } from 'vitest'
import { parseSymbol } from '../../domain/symbols'
import { market } from '../../emulator/market/index'
import { planDates } from '../../emulator/market/dividend-plans'
import { createEmulatorFetch, setClock } from '../../emulator/control'
import { failureKind as kind } from '../testkit'
import { fetchSinaDividends, parseSinaDividends, sinaDividendUrl } from './dividends'

// A real page of Sina's (2021), kept verbatim but for its navigation and adverts: test/fixtures/sina/SOURCE.md.
const PAGE = Object.values(import.meta.glob('/test/fixtures/sina/sharebonus-sz300670-2021.html', { query: '?raw', import: 'default', eager: true }))[0] as string
const SZ300670 = parseSymbol('sz300670')

describe('Sina distribution page (vISSUE_ShareBonus)', () => {
  it('reads the real page: per-share figures, dates and stages, newest first; the no-distribution row left out', () => {
    const plans = parseSinaDividends(PAGE, SZ300670)
    expect(plans.map((p) => p.exDate)).toEqual(['2021-06-04', '2019-06-28', '2018-07-10'])
    expect(plans[0]).toEqual({
      reportDate: null, planNoticeDate: null, noticeDate: '2021-05-28', cash: 0.06, bonusShares: 0, transferShares: 0, bonusTransferShares: 0,
      recordDate: '2021-06-03', exDate: '2021-06-04', payDate: null, status: 'implemented', statusText: '实施', profile: null,
    })
    // 10转5 in 2019; 10转8派2 in 2018.
    expect(plans[1]).toMatchObject({ cash: 0, bonusShares: 0, transferShares: 0.5, bonusTransferShares: 0.5, recordDate: '2019-06-27' })
    expect(plans[2]).toMatchObject({ cash: 0.2, transferShares: 0.8, bonusTransferShares: 0.8, recordDate: '2018-07-09' })
  })

  it('refuses a page of another stock, a page without the table, and a row that does not add up', () => {
    expect(kind(() => parseSinaDividends(PAGE, parseSymbol('sz000001')))).toBe('malformed')
    expect(kind(() => parseSinaDividends(PAGE.replace('id="sharebonus_1"', 'id="x"'), SZ300670))).toBe('malformed')
    expect(kind(() => parseSinaDividends(PAGE.replace('<td>0.6</td>', '<td>0.6元</td>'), SZ300670))).toBe('malformed')
    expect(kind(() => parseSinaDividends(PAGE.replace('<td>2021-06-03</td>', '<td>2021-06-05</td>'), SZ300670))).toBe('malformed')
    expect(kind(() => parseSinaDividends(PAGE.replace('<td>2021-06-04</td>', '<td>--</td>'), SZ300670))).toBe('malformed')
    expect(kind(() => parseSinaDividends(PAGE.replace('<td>2018-07-10</td>\n', ''), SZ300670))).toBe('malformed')
  })

  it('reads a table without plans as none', () => {
    const empty = PAGE.replace(/<tbody>[\s\S]*?<\/tbody>/, "<tbody><tr><td colspan='9' style='text-align:center'>暂时没有数据！</td></tr></tbody>")
    expect(parseSinaDividends(empty, SZ300670)).toEqual([])
  })

  it('is for A-share stocks only', () => {
    expect(kind(() => sinaDividendUrl(parseSymbol('sh000001')))).toBe('unsupported')
    expect(sinaDividendUrl(parseSymbol('sh600519'))).toBe('https://vip.stock.finance.sina.com.cn/corp/go.php/vISSUE_ShareBonus/stockid/600519.phtml')
  })

  it('reads the emulator\'s page of the same corporate actions Eastmoney serves', async () => {
    const now = Date.parse('2026-11-20T10:30:00+08:00')
    setClock(now)
    try {
      const inst = parseSymbol('sh600519')
      const plans = await fetchSinaDividends({ fetch: createEmulatorFetch(market), timeoutMs: 4000 }, inst)
      const actions = market.actions(market.byCode('sh600519')!, now)
      const implemented = plans.filter((p) => p.status === 'implemented')
      expect(implemented.map((p) => p.exDate)).toEqual([...actions].reverse().map((a) => a.exDate))
      implemented.forEach((p, k) => {
        const a = actions[actions.length - 1 - k]
        expect(p.cash).toBeCloseTo(a.cash, 4)
        expect(p.bonusTransferShares).toBeCloseTo(a.bonus, 4)
        expect(p.recordDate).toBe(planDates(a).record)
      })
    } finally {
      setClock(null)
    }
  })
})
