import { describe, expect, it } from 'vitest'
import { securityName } from './names'

describe('securityName', () => {
  it('drops the padding upstreams put between the characters of short Chinese names', () => {
    expect(securityName('五 粮 液')).toBe('五粮液')
    expect(securityName('万  科Ａ')).toBe('万科Ａ')
    expect(securityName('平安银行')).toBe('平安银行')
    expect(securityName(' 贵州茅台 ')).toBe('贵州茅台')
    expect(securityName('中\u3000信')).toBe('中信')
  })

  it('keeps spaces in Latin names and between a Latin and a Chinese part', () => {
    expect(securityName('Apple Inc.')).toBe('Apple Inc.')
    expect(securityName('TENCENT HOLDINGS')).toBe('TENCENT HOLDINGS')
    expect(securityName('*ST 海润')).toBe('*ST 海润')
    expect(securityName('')).toBe('')
  })
})
