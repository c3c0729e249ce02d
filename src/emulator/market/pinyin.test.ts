import { describe, expect, it } from 'vitest'
import { pinyinFull, pinyinInitials } from './pinyin'
import { realNames } from './real-names'
import { universe } from './universe'

describe('pinyinInitials', () => {
  it('spells the real names as Eastmoney does', () => {
    expect(pinyinInitials('贵州茅台')).toBe('GZMT')
    expect(pinyinInitials('平安银行')).toBe('PAYH')
    expect(pinyinInitials('长江电力')).toBe('CJDL')
    expect(pinyinInitials('沪深300ETF')).toBe('HS300ETF')
    expect(pinyinInitials('*ST华泰')).toBe('STHT')
    expect(pinyinInitials('万科Ａ')).toBe('WKA')
    expect(pinyinInitials('成都银行')).toBe('CDYH')
    expect(pinyinInitials('重庆啤酒')).toBe('CQPJ')
    expect(pinyinInitials('ST任子行')).toBe('STRZX')
  })

  it('spells whole names with the readings they take', () => {
    expect(pinyinFull('平安银行')).toBe('PINGANYINHANG')
    expect(pinyinFull('贵州茅台')).toBe('GUIZHOUMAOTAI')
    expect(pinyinFull('长江电力')).toBe('CHANGJIANGDIANLI')
    expect(pinyinFull('沪深300ETF')).toBe('HUSHEN300ETF')
    expect(pinyinFull('重庆银行')).toBe('CHONGQINGYINHANG')
    expect(pinyinFull('中国重工')).toBe('ZHONGGUOZHONGGONG')
    expect(pinyinFull('厦门象屿')).toBe('XIAMENXIANGYU')
    expect(pinyinFull('广厦环能')).toBe('GUANGSHAHUANNENG')
  })

  it('covers every character of every name in the universe', () => {
    for (const inst of universe().list) expect(() => pinyinInitials(inst.name, true)).not.toThrow()
    for (const name of realNames().values()) expect(() => pinyinInitials(name, true)).not.toThrow()
  })

  it('refuses a character it does not know rather than guess (strict), or leaves it out', () => {
    expect(() => pinyinInitials('龘', true)).toThrow(/no pinyin initial/)
    expect(pinyinInitials('龘茅台')).toBe('MT')
  })
})
