import { describe, expect, it } from 'vitest'
import { bondName, reserve, stName, uniqueName } from './names'

describe('names', () => {
  it('draws unique 2–4 character Chinese names, deterministically', () => {
    const taken = new Set(['贵州茅台'])
    const names = Array.from({ length: 6000 }, (_, i) => uniqueName(i * 7919 + 13, taken))
    expect(new Set(names).size).toBe(6000)
    for (const n of names) expect(n).toMatch(/^[\u4e00-\u9fff]{2,4}$/)
    const again = new Set(['贵州茅台'])
    expect(Array.from({ length: 50 }, (_, i) => uniqueName(i * 7919 + 13, again))).toEqual(names.slice(0, 50))
  })

  it('marks ST stocks and names bonds after their issuer', () => {
    expect(stName('华泰科技', true)).toBe('*ST华泰科技')
    expect(stName('华泰科技', false)).toBe('ST华泰科技')
    expect(bondName('*ST华泰科技')).toBe('华泰转债')
  })

  it('reserves a real name in the forms a synthetic one could pass for', () => {
    const taken = new Set<string>()
    reserve(taken, '万科Ａ')
    reserve(taken, '*ST恒瑞医药')
    reserve(taken, '九号公司-WD')
    expect([...taken].sort()).toEqual(['*ST恒瑞医药', '万科', '万科Ａ', '九号', '九号公司', '九号公司-WD', '恒瑞', '恒瑞医药'].sort())
  })
})
