import { describe, expect, it } from 'vitest'
import { encodeGbk } from './gbk'

const decode = (b: Uint8Array) => new TextDecoder('gbk').decode(b)

describe('encodeGbk', () => {
  it('encodes known characters to their GBK bytes', () => {
    // 中 = D6 D0, 文 = CE C4 in GB2312/GBK.
    expect([...encodeGbk('中文')]).toEqual([0xd6, 0xd0, 0xce, 0xc4])
  })

  it('passes ASCII through unchanged', () => {
    const s = 'v_sh600519="1~x~600519";\n'
    expect(encodeGbk(s)).toEqual(new TextEncoder().encode(s))
  })

  it('round-trips Chinese security names through TextDecoder("gbk")', () => {
    for (const name of ['贵州茅台', '平安银行', '腾讯控股', '苹果', '沪深300ETF', '螺纹钢2501', '美元兑离岸人民币', '中证1000股指', '标普500', '（香港）']) {
      expect(decode(encodeGbk(name))).toBe(name)
    }
  })

  it('uses two bytes per CJK character and one per ASCII character', () => {
    expect(encodeGbk('贵州茅台600519').length).toBe(4 * 2 + 6)
  })

  it('replaces characters GBK cannot express with ?', () => {
    expect(decode(encodeGbk('a😀b'))).toBe('a?b')
  })
})
