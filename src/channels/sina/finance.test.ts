import { readFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { parseSymbol } from '../../domain/symbols'
import { createEmulatorFetch, setClock } from '../../emulator/control'
import { market } from '../../emulator/market'
import { fetchFinance } from '../eastmoney/finance'
import { failureKind, fakeContext } from '../testkit'
import { fetchSinaFinance, parseSinaStatement, sinaFinanceUrl } from './finance'

const moutai = parseSymbol('sh600519')

// The shape of upstreams.md §5.1.5's sample (invented values).
function answer(dates: Record<string, Record<string, string>>): string {
  return JSON.stringify({
    result: {
      status: { code: 0 },
      data: {
        report_date: Object.keys(dates).map((d) => ({ date_value: d, date_description: '' })),
        report_list: Object.fromEntries(Object.entries(dates).map(([d, items]) => [d, {
          rType: '合并期末', rCurrency: 'CNY', data_source: '定期报告', is_audit: '未审计', publish_date: '20241026', update_time: 1729900000,
          data: Object.entries(items).map(([item_title, item_value]) => ({ item_field: 'X', item_title, item_value })),
        }])),
      },
    },
  })
}

describe('parseSinaStatement', () => {
  it('maps item titles onto our lines; a title not sent is null', () => {
    const [r] = parseSinaStatement('income', answer({ '20240930': { 营业总收入: '120452389012.50', 归属于母公司所有者的净利润: '60827990123.40' } }), moutai, 4)
    expect(r).toMatchObject({ EndDate: '2024-09-30', revenue: 120452389012.5, parent_net_profit: 60827990123.4, net_profit: null })
  })

  it('reads a real answer: 伯特利 (sh603596), income, 10 periods of 41, Sunday 2025-12-21 15:50', () => {
    // test/fixtures/sina/SOURCE.md: num=10 of a stock with 41 periods; each period has 77 lines,
    // values as text with 6 decimals, null where the line does not apply.
    const text = readFileSync('test/fixtures/sina/finance-lrb-sh603596-2025-12-21-155011.json', 'utf8')
    const raw = JSON.parse(text).result.data
    expect(raw.report_count).toBe('41')
    expect(raw.report_date).toHaveLength(10)
    const bertley = parseSymbol('sh603596')
    const rows = parseSinaStatement('income', text, bertley, 10)
    expect(rows.map((r) => r.EndDate)).toEqual(['2025-09-30', '2025-06-30', '2025-03-31', '2024-12-31', '2024-09-30', '2024-06-30', '2024-03-31', '2023-12-31', '2023-09-30', '2023-06-30'])
    expect(rows[0]).toEqual({
      EndDate: '2025-09-30',
      revenue: 8357282726.53,
      operating_cost: 6742444433.06,
      selling_expense: 39870587.61,
      admin_expense: 217205669.06,
      finance_expense: -13613115.66,
      total_operating_cost: 7465564391.71,
      operating_profit: 1042925863.98,
      total_profit: 1041935676.8,
      income_tax: 141807877.61,
      net_profit: 900127799.19,
      parent_net_profit: 891492406.25,
      deducted_parent_net_profit: null,
      basic_eps: 1.47,
    })
    for (const r of rows) {
      const n = r as Record<string, number | null>
      // The statement's own arithmetic: total profit less tax is net profit.
      expect(Math.abs(n.total_profit! - n.income_tax! - n.net_profit!), r.EndDate).toBeLessThan(0.015)
    }
    // Year-to-date figures: within 2025, Q1 < H1 < Q1–Q3, and EPS grows with them.
    // Net profit is the parent's share plus the minority's (少数股东损益), as the answer's own lines say.
    const q3 = raw.report_list['20250930'].data as { item_title: string; item_value: string | null }[]
    const line = (t: string) => Number(q3.find((i) => i.item_title === t)!.item_value)
    expect(line('归属于母公司所有者的净利润') + line('少数股东损益')).toBeCloseTo(line('净利润'), 2)
    expect(rows[2].revenue! < rows[1].revenue! && rows[1].revenue! < rows[0].revenue!).toBe(true)
    expect(rows.slice(0, 4).map((r) => r.basic_eps)).toEqual([1.47, 0.86, 0.45, 1.99])
  })

  it('rejects what cannot be right', () => {
    const bs = (a: string) => answer({ '20240930': { 资产总计: a, 负债合计: '100', '所有者权益(或股东权益)合计': '200' } })
    expect(failureKind(() => parseSinaStatement('balance', bs('300'), moutai, 4))).toBe('no error')
    expect(failureKind(() => parseSinaStatement('balance', bs('320'), moutai, 4))).toBe('malformed')
    expect(failureKind(() => parseSinaStatement('balance', bs('abc'), moutai, 4))).toBe('malformed')
    expect(failureKind(() => parseSinaStatement('income', answer({ '20240931': {} }), moutai, 4))).toBe('malformed')
    expect(failureKind(() => parseSinaStatement('income', answer({ '20240630': {}, '20240930': {} }), moutai, 4))).toBe('malformed')
    expect(failureKind(() => parseSinaStatement('income', '{"result":{"status":{"code":1}}}', moutai, 4))).toBe('malformed')
  })
})

describe('fetchSinaFinance', () => {
  afterEach(() => setClock(null))

  it('asks with the Referer, agrees with Eastmoney on every line both send, and fills the lines Eastmoney lacks (Sina has no deducted profit)', async () => {
    setClock(Date.parse('2026-11-20T10:30:00+08:00'))
    const ctx = { fetch: createEmulatorFetch(market), timeoutMs: 2000 }
    const sina = await fetchSinaFinance(ctx, moutai, 6)
    const eastmoney = await fetchFinance(ctx, moutai, 6)
    // Eastmoney's statement reports carry no basic EPS and no current, parent or minority lines (src/channels/eastmoney/finance.ts).
    const filled: string[] = []
    const lacking: string[] = []
    const walk = (a: unknown, b: unknown, path: string) => {
      if (b === null && a !== null) return filled.push(path.replace(/\[\d+\]/g, ''))
      if (a === null && b !== null) return lacking.push(path.replace(/\[\d+\]/g, ''))
      if (a && typeof a === 'object') for (const k of Object.keys(b as object)) walk((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], Array.isArray(a) ? `${path}[${k}]` : `${path}.${k}`)
      else expect(a, path).toEqual(b)
    }
    walk(sina, eastmoney, '$')
    expect([...new Set(filled)].sort()).toEqual(['$.basic_eps', '$.current_assets', '$.current_liabilities', '$.minority_equity', '$.parent_equity'])
    expect([...new Set(lacking)]).toEqual(['$.deducted_parent_net_profit'])
    const { ctx: fake, calls } = fakeContext(() => ({ body: answer({}) }))
    await expect(fetchSinaFinance(fake, moutai, 4)).rejects.toMatchObject({ kind: 'empty' })
    expect(calls.map((c) => c.url)).toContain(sinaFinanceUrl('balance', moutai))
    expect(calls[0].headers.referer).toBe('https://finance.sina.com.cn/')
  })
})
