import { describe, expect, it } from 'vitest'
import { market } from '../../emulator/market'
import { handleSinaSuggest } from '../../emulator/wire/sina-suggest'
import { ChannelError } from '../errors'
import { parseSinaSuggest, sinaSuggestUrl } from './suggest'

const emulated = async (key: string) => new TextDecoder('gbk').decode(await handleSinaSuggest(new URL(sinaSuggestUrl(key)), market).arrayBuffer())

describe('parseSinaSuggest', () => {
  it('reads the emulator: code, name and pinyin all find 贵州茅台', async () => {
    for (const key of ['600519', '茅台', 'gzmt']) {
      expect((await parseSinaSuggest(await emulated(key)))[0]).toEqual({ code: 'sh600519', name: '贵州茅台', kind: 'stock', market: 'shanghai', pinyin: null })
    }
  })

  it('maps HK and US items to our codes', async () => {
    expect(parseSinaSuggest(await emulated('00700'))[0]).toMatchObject({ code: 'hk00700', market: 'hong_kong' })
    expect(parseSinaSuggest(await emulated('aapl'))[0]).toMatchObject({ code: 'usAAPL', market: 'us' })
  })

  it('reads the documented wire shape, and an empty answer as no hits', () => {
    expect(parseSinaSuggest('var suggestvalue="贵州茅台,11,600519,sh600519,贵州茅台,,贵州茅台,99,1,,,";')).toEqual([
      { code: 'sh600519', name: '贵州茅台', kind: 'stock', market: 'shanghai', pinyin: null },
    ])
    expect(parseSinaSuggest('var suggestvalue="";')).toEqual([])
  })

  it('rejects malformed answers and items that contradict themselves', () => {
    for (const bad of ['', '<html></html>', 'var x="a,b";', 'var x="茅台,11,600000,sh600519,贵州茅台";']) {
      expect(() => parseSinaSuggest(bad)).toThrow(ChannelError)
    }
  })
})

describe('parseSinaSuggest on a captured answer', () => {
  // test/fixtures/sina/SOURCE.md: a STAR stock (type 11) and an HK stock (type 31).
  const CAPTURED = Object.values(import.meta.glob('/test/fixtures/sina/suggest-688047-2024.txt', { query: '?raw', import: 'default', eager: true }))[0] as string
  it('maps type 11 to the sh symbol and type 31 to hk + code', () => {
    expect(parseSinaSuggest(CAPTURED)).toEqual([
      { code: 'sh688047', name: '龙芯中科', kind: 'stock', market: 'shanghai', pinyin: null },
      { code: 'hk02186', name: '绿叶制药', kind: 'stock', market: 'hong_kong', pinyin: null },
    ])
  })
})

describe('parseSinaSuggest on the 2025 answers', () => {
  // test/fixtures/sina/SOURCE.md: items of twelve fields (one more than in 2024); a fund (type 21, `of` symbol).
  const [STOCKS, FUND] = (Object.values(import.meta.glob('/test/fixtures/sina/suggest-688047-02186-014826-2025.txt', { query: '?raw', import: 'default', eager: true }))[0] as string).trim().split('\n')
  it('reads the stocks and leaves the off-exchange fund out', () => {
    expect(parseSinaSuggest(STOCKS).map((h) => h.code)).toEqual(['sh688047', 'hk02186'])
    expect(parseSinaSuggest(FUND)).toEqual([])
  })
})
