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

  it('asks with the Referer, agrees with Eastmoney on every line both send, and fills the lines Eastmoney lacks', async () => {
    setClock(Date.parse('2026-11-20T10:30:00+08:00'))
    const ctx = { fetch: createEmulatorFetch(market), timeoutMs: 2000 }
    const sina = await fetchSinaFinance(ctx, moutai, 6)
    const eastmoney = await fetchFinance(ctx, moutai, 6)
    // Eastmoney's statement reports carry no basic EPS and no current, parent or minority lines (src/channels/eastmoney/finance.ts).
    const filled: string[] = []
    const walk = (a: unknown, b: unknown, path: string) => {
      if (b === null && a !== null) return filled.push(path.replace(/\[\d+\]/g, ''))
      if (a && typeof a === 'object') for (const k of Object.keys(b as object)) walk((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], Array.isArray(a) ? `${path}[${k}]` : `${path}.${k}`)
      else expect(a, path).toEqual(b)
    }
    walk(sina, eastmoney, '$')
    expect([...new Set(filled)].sort()).toEqual(['$.basic_eps', '$.current_assets', '$.current_liabilities', '$.minority_equity', '$.parent_equity'])
    const { ctx: fake, calls } = fakeContext(() => ({ body: answer({}) }))
    await expect(fetchSinaFinance(fake, moutai, 4)).rejects.toMatchObject({ kind: 'empty' })
    expect(calls.map((c) => c.url)).toContain(sinaFinanceUrl('balance', moutai))
    expect(calls[0].headers.referer).toBe('https://finance.sina.com.cn/')
  })
})
