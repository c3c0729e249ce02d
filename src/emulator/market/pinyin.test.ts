import { describe, expect, it } from 'vitest'
import { pinyinFull, pinyinInitials } from './pinyin'
import { universe } from './universe'

describe('pinyinInitials', () => {
  it('spells the real names as Eastmoney does', () => {
    expect(pinyinInitials('贵州茅台')).toBe('GZMT')
    expect(pinyinInitials('平安银行')).toBe('PAYH')
    expect(pinyinInitials('长江电力')).toBe('CJDL')
    expect(pinyinInitials('沪深300ETF')).toBe('HS300ETF')
    expect(pinyinInitials('*ST华泰')).toBe('STHT')
  })

  it('spells whole names with the readings they take', () => {
    expect(pinyinFull('平安银行')).toBe('PINGANYINHANG')
    expect(pinyinFull('贵州茅台')).toBe('GUIZHOUMAOTAI')
    expect(pinyinFull('长江电力')).toBe('CHANGJIANGDIANLI')
    expect(pinyinFull('沪深300ETF')).toBe('HUSHEN300ETF')
  })

  it('covers every character of every name in the universe', () => {
    for (const inst of universe().list) expect(() => pinyinInitials(inst.name, true)).not.toThrow()
  })

  it('refuses a character it does not know rather than guess (strict), or leaves it out', () => {
    expect(() => pinyinInitials('龘', true)).toThrow(/no pinyin initial/)
    expect(pinyinInitials('龘茅台')).toBe('MT')
  })
})
