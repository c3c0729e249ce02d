import { describe, expect, it } from 'vitest'
import realCn from '../../../test/fixtures/eastmoney/macro-cn-rows-2022-12.json'
import realGdp from '../../../test/fixtures/eastmoney/macro-gdp-2022q3.json'
import realYields from '../../../test/fixtures/eastmoney/treasuryyield-2026-07-27.json'
import realYieldRow2023 from '../../../test/fixtures/eastmoney/treasuryyield-row-2023-01-17.json'
import realLpr from '../../../test/fixtures/eastmoney/lpr-row-2026-08-20.json'
import { MACRO_CATALOGUE, MACRO_REGIONS } from '../../data/macro-catalogue'
import { market } from '../../emulator/market'
import { handleDatacenter } from '../../emulator/wire/eastmoney-datacenter'
import { ChannelError } from '../errors'
import { readDatacenter } from './datacenter'
import { groupOf, periodOf, readMacroRows } from './macro'

const NOW = Date.parse('2026-11-20T10:30:00+08:00')
const cpi = MACRO_CATALOGUE.cn.find((s) => s.name === 'cpi')!
const usCpi = MACRO_CATALOGUE.us.find((s) => s.name === 'cpi')!

async function emulatedRows(params: Record<string, string>) {
  const q = new URLSearchParams({ columns: 'ALL', pageNumber: '1', pageSize: '12', sortTypes: '-1', ...params })
  return readDatacenter(await handleDatacenter(q, market, NOW).text())?.data ?? []
}

describe('readMacroRows', () => {
  it('reads the documented CPI row shape (upstreams.md §5.12)', () => {
    const row = { REPORT_DATE: '2024-12-01 00:00:00', TIME: '2024年12月份', NATIONAL_SAME: 0.1, NATIONAL_BASE: 100.1, NATIONAL_SEQUENTIAL: 0.0 }
    const got = readMacroRows([cpi], [row])
    expect(got.get('cpi')).toEqual([{ period: '2024-12', value: 0.1, release: null }])
  })

  it('reads real China rows of December 2022 and GDP of Q1–Q3 2022 (test/fixtures/eastmoney/SOURCE.md)', () => {
    const cn = (name: string) => MACRO_CATALOGUE.cn.find((s) => s.name === name)!
    const read = (names: string[], row: object) => readMacroRows(names.map(cn), [row as Record<string, unknown>] as never)
    // The rows add up as real ones do: M2 over the month before, PMI against December 2021 (50.3, 52.7).
    expect((realCn.RPT_ECONOMY_PMI.MAKE_INDEX / 50.3 - 1) * 100).toBeCloseTo(realCn.RPT_ECONOMY_PMI.MAKE_SAME, 6)
    expect((realCn.RPT_ECONOMY_PMI.NMAKE_INDEX / 52.7 - 1) * 100).toBeCloseTo(realCn.RPT_ECONOMY_PMI.NMAKE_SAME, 5)
    const g = realGdp.result.data[0]
    expect(g.FIRST_PRODUCT_BASE + g.SECOND_PRODUCT_BASE + g.THIRD_PRODUCT_BASE).toBeCloseTo(g.DOMESTICL_PRODUCT_BASE, 6)
    expect(readDatacenter(JSON.stringify(realGdp))).toMatchObject({ pages: 1, count: 1 })
    // REPORT_DATE is the first day of the period's last month: 2022-09-01 for the first three quarters.
    const gdp = read(['gdp', 'gdp_yoy'], g)
    expect(gdp.get('gdp')).toEqual([{ period: '2022-Q3', value: 870269, release: null }])
    expect(gdp.get('gdp_yoy')).toEqual([{ period: '2022-Q3', value: 3, release: null }])
    expect(read(['cpi', 'cpi_mom'], realCn.RPT_ECONOMY_CPI)).toEqual(new Map([['cpi', [{ period: '2022-12', value: 1.8, release: null }]], ['cpi_mom', [{ period: '2022-12', value: 0, release: null }]]]))
    expect(read(['ppi'], realCn.RPT_ECONOMY_PPI).get('ppi')).toEqual([{ period: '2022-12', value: -0.7, release: null }])
    expect(read(['pmi', 'pmi_non_manufacturing'], realCn.RPT_ECONOMY_PMI).get('pmi_non_manufacturing')).toEqual([{ period: '2022-12', value: 41.6, release: null }])
    const money = read(['m2', 'm2_yoy', 'm1_yoy'], realCn.RPT_ECONOMY_CURRENCY_SUPPLY)
    expect([money.get('m2')![0].value, money.get('m2_yoy')![0].value, money.get('m1_yoy')![0].value]).toEqual([2664300, 11.8, 3.7])
  })

  it('reads real treasury rows of July 2026 and January 2023 (test/fixtures/eastmoney/SOURCE.md), dated by SOLAR_DATE', () => {
    // The rows add up as real ones do: the spread columns are 10Y − 2Y of the same row.
    for (const r of [...realYields, realYieldRow2023]) {
      expect(r.EMM00166466 - r.EMM00588704).toBeCloseTo(r.EMM01276014, 6)
      expect(r.EMG00001310 - r.EMG00001306).toBeCloseTo(r.EMG01339436, 6)
    }
    const series = (region: 'cn' | 'us') => MACRO_CATALOGUE[region].filter((s) => s.name.startsWith('treasury_'))
    const cn = readMacroRows(series('cn'), realYields as never)
    expect(cn.get('treasury_10y')).toEqual([{ period: '2026-07-27', value: 1.7337, release: '2026-07-27' }, { period: '2026-07-23', value: 1.7325, release: '2026-07-23' }])
    expect(cn.get('treasury_2y')![0].value).toBe(1.2688)
    expect(cn.get('treasury_30y')![0].value).toBe(2.193)
    const us = readMacroRows(series('us'), realYields as never)
    expect([us.get('treasury_2y')![0].value, us.get('treasury_10y')![0].value, us.get('treasury_30y')![0].value]).toEqual([4.31, 4.65, 5.12])
    // An inverted US curve in January 2023: the spread is negative.
    expect(readMacroRows(series('us'), [realYieldRow2023] as never).get('treasury_10y')).toEqual([{ period: '2023-01-17', value: 3.53, release: '2023-01-17' }])
    expect(realYieldRow2023.EMG01339436).toBe(-0.65)
  })

  it('reads a real LPR row of 2026-08 (test/fixtures/eastmoney/SOURCE.md), dated and released on its TRADE_DATE', () => {
    const lpr = MACRO_CATALOGUE.cn.filter((s) => s.name.startsWith('lpr_'))
    const got = readMacroRows(lpr, [realLpr] as never)
    expect(got.get('lpr_1y')).toEqual([{ period: '2026-08', value: 3, release: '2026-08-20' }])
    expect(got.get('lpr_5y')).toEqual([{ period: '2026-08', value: 3.5, release: '2026-08-20' }])
  })

  it('answers RPTA_WEB_RATE with the real columns: no REPORT_DATE or TIME, the benchmark rates beside the LPR', async () => {
    const [row] = await emulatedRows({ reportName: 'RPTA_WEB_RATE', sortColumns: 'TRADE_DATE' })
    expect(Object.keys(row)).toEqual(['TRADE_DATE', 'LPR1Y', 'LPR5Y', 'RATE_1', 'RATE_2'])
    expect([row.RATE_1, row.RATE_2]).toEqual([4.35, 4.9])
  })

  it('reads every series of every region from the emulator, newest first, nothing after the clock', async () => {
    for (const region of MACRO_REGIONS) {
      const groups = new Map<string, typeof cpi[]>()
      for (const s of MACRO_CATALOGUE[region]) groups.set(groupOf(s), [...(groups.get(groupOf(s)) ?? []), s])
      for (const members of groups.values()) {
        const s = members[0].source
        const rows = await emulatedRows(
          s.kind === 'report' ? { reportName: s.report, sortColumns: s.dateColumn } : { reportName: s.report, sortColumns: 'REPORT_DATE', filter: `(INDICATOR_ID="${s.indicator}")` }
        )
        const got = readMacroRows(members, rows)
        for (const m of members) {
          const points = got.get(m.name)!
          expect(points.length, `${region} ${m.name}`).toBeGreaterThan(0)
          expect(points[0].period <= periodOf('2026-11-20', m.frequency), `${region} ${m.name}`).toBe(true)
          for (const p of points) if (p.release) expect(p.release <= '2026-11-20').toBe(true)
        }
      }
    }
  })

  it('refuses an indicator that is not the one asked, or renamed to something else', () => {
    const row = { INDICATOR_ID: 'EMG00000733', INDICATOR_NAME: '美国CPI年率', REPORT_DATE: '2026-10-01 00:00:00', PUBLISH_DATE: '2026-11-12 00:00:00', VALUE: 3.1 }
    expect(readMacroRows([usCpi], [row]).get('cpi')).toEqual([{ period: '2026-10', value: 3.1, release: '2026-11-12' }])
    expect(() => readMacroRows([usCpi], [{ ...row, INDICATOR_ID: 'EMG00001039' }])).toThrow(ChannelError)
    expect(() => readMacroRows([usCpi], [{ ...row, INDICATOR_NAME: '美国失业率' }])).toThrow(/not the cpi series/)
    expect(() => readMacroRows([usCpi], [{ ...row, PUBLISH_DATE: '2026-09-01 00:00:00' }])).toThrow(ChannelError)
  })

  it('skips a value not out yet, and refuses bad numbers, bad dates and repeated periods', () => {
    const row = { REPORT_DATE: '2026-10-01 00:00:00', NATIONAL_SAME: 0.3 }
    expect(readMacroRows([cpi], [{ ...row, NATIONAL_SAME: null }]).get('cpi')).toEqual([])
    expect(() => readMacroRows([cpi], [{ ...row, NATIONAL_SAME: 'abc' }])).toThrow(ChannelError)
    expect(() => readMacroRows([cpi], [{ ...row, REPORT_DATE: '2026-13-01' }])).toThrow(ChannelError)
    expect(() => readMacroRows([cpi], [row, { ...row, REPORT_DATE: '2026-10-15 00:00:00' }])).toThrow(/twice/)
  })
})
