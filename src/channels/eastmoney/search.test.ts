import { describe, expect, it } from 'vitest'
import captured from '../../../test/fixtures/eastmoney/suggest-000001.json?raw'
import { market } from '../../emulator/market'
import { handleSearch } from '../../emulator/wire/eastmoney-search'
import { ChannelError } from '../errors'
import { parseSuggest } from './search'

const emulated = (input: string, count = 10) => handleSearch(new URLSearchParams({ input, count: String(count) }), market).text()

describe('parseSuggest', () => {
  it('reads a captured real answer', () => {
    expect(parseSuggest(captured)).toEqual([{ code: 'sz000001', name: '平安银行', kind: 'stock', market: 'shenzhen', pinyin: 'PAYH' }])
  })

  it('finds 贵州茅台 by code, name and pinyin initials in the emulator', async () => {
    for (const q of ['600519', '贵州茅台', 'gzmt']) {
      const hits = parseSuggest(await emulated(q))
      expect(hits[0]).toEqual({ code: 'sh600519', name: '贵州茅台', kind: 'stock', market: 'shanghai', pinyin: 'GZMT' })
    }
  })

  it('maps every class to our prefixed codes: index, ETF, sector, HK, US', async () => {
    expect(parseSuggest(await emulated('上证指数'))[0]).toMatchObject({ code: 'sh000001', kind: 'index', market: 'shanghai' })
    expect(parseSuggest(await emulated('159915'))[0]).toMatchObject({ code: 'sz159915', kind: 'fund', market: 'shenzhen' })
    expect(parseSuggest(await emulated('酿酒行业'))[0]).toMatchObject({ code: 'pt0477', kind: 'sector', market: 'a_share' })
    expect(parseSuggest(await emulated('00700'))[0]).toMatchObject({ code: 'hk00700', kind: 'stock', market: 'hong_kong' })
    expect(parseSuggest(await emulated('AAPL'))[0]).toMatchObject({ code: 'usAAPL', kind: 'stock', market: 'us' })
    expect(parseSuggest(await emulated('830799'))[0]).toMatchObject({ code: 'bj830799', kind: 'stock', market: 'beijing' })
  })

  it('treats Data null as no hits', async () => {
    expect(parseSuggest(await emulated('zzzzzzzzz'))).toEqual([])
  })

  it('skips classes we do not serve and rejects rows that contradict themselves', () => {
    const body = (rows: unknown[]) => JSON.stringify({ QuotationCodeTable: { Data: rows, Status: 0 } })
    expect(parseSuggest(body([{ Code: 'rb2501', Name: '螺纹2501', Classify: 'Futures', QuoteID: '113.rb2501' }]))).toEqual([])
    expect(() => parseSuggest(body([{ Code: '600519', Name: '贵州茅台', Classify: 'AStock', QuoteID: '1.600000' }]))).toThrow(ChannelError)
    expect(() => parseSuggest(body([{ Code: '600519', Classify: 'AStock', QuoteID: '1.600519' }]))).toThrow(/Name/)
  })

  it('rejects what is not a suggest answer', () => {
    for (const bad of ['', '<html>', '{"rc":0,"data":null}', '{"QuotationCodeTable":{"Data":{}}}']) {
      expect(() => parseSuggest(bad)).toThrow(ChannelError)
    }
  })
})
