import { describe, expect, it } from 'vitest'
import { readFileSync } from 'node:fs'
import { parseSymbol } from '../../domain/symbols'
import { parseQuotes, statements } from './quotes'

// Real qt.gtimg.cn lines taken outside the continuous session: after the close, on a holiday, in
// the opening call auction, of suspended and delisted codes. test/fixtures/tencent/SOURCE.md
// says where each comes from and how it adds up.
const FIXTURES = import.meta.glob('/test/fixtures/tencent/qt-*.txt', { query: '?raw', import: 'default', eager: true }) as Record<string, string>
const fixture = (name: string) => {
  const text = FIXTURES[`/test/fixtures/tencent/${name}`]
  if (text === undefined) throw new Error(`no fixture ${name}`)
  return text
}
const wanted = (...codes: string[]) => new Map(codes.map((c) => [c, parseSymbol(c)]))
/** The `~` fields of one record of a body, as the host sent them. */
const fieldsOf = (text: string, name: string) => {
  const rec = statements(text).find(([n]) => n === name)
  if (!rec) throw new Error(`no record ${name}`)
  return rec[1].split('~')
}

const CLOSE_0930 = fixture('qt-sh600519-2026-09-30-161458.txt')
const HOLIDAY_1002 = fixture('qt-sh600519-holiday-2026-10-02.txt')
const BATCH_1008 = fixture('qt-sz000003-sh600005-sh600000-2026-10-08.txt')
const SUSPENDED_2026 = fixture('qt-sz002731-suspended-2026-09-02.txt')
const SUSPENDED_2017 = fixture('qt-sz300104-suspended-2017-05-17.txt')
// The published text has a line break for field 60 (a space on the wire: `0~ ~GP-A`), which the
// statement splitter rightly refuses; the test puts the space back before parsing.
const AUCTION_0509 = fixture('qt-sz002241-auction-2025-05-09-092233.txt')
const AUCTION_0509_LINE = AUCTION_0509.replace('~\n~', '~ ~')

describe('tencent quotes outside the session (captured lines)', () => {
  it('after the close the line keeps the session: its time, prices, volume and closing book', () => {
    expect(parseQuotes(CLOSE_0930, wanted('sh600519')).get('sh600519')).toEqual({
      code: 'sh600519', name: '贵州茅台', date: '2026-09-30', time: '16:14:58', last: 1258.62, open: 1239.53, high: 1268, low: 1236.05,
      preClose: 1235.58, volume: 3_833_100, amount: 4_797_250_000, turnover: 0.31, halted: false, traded: true,
    })
    const f = fieldsOf(CLOSE_0930, 'sh600519')
    expect(f.slice(9, 13)).toEqual(['1258.62', '14', '1258.44', '1']) // bid1, bid2
    expect(f.slice(19, 21)).toEqual(['1258.65', '2']) // ask1
    expect(f[40]).toBe('') // no status flag on a trading line
  })

  it('on a holiday (2026-10-02) the host serves the last session\'s closing line unchanged', () => {
    const holiday = fieldsOf(HOLIDAY_1002, 'sh600519')
    expect(holiday).toHaveLength(33) // trimmed by its publisher
    expect(holiday[30]).toBe('20260930161458')
    expect(holiday).toEqual(fieldsOf(CLOSE_0930, 'sh600519').slice(0, 33))
    // Too short for the A-share layout: skipped, not misread.
    expect(parseQuotes(HOLIDAY_1002, wanted('sh600519')).size).toBe(0)
  })

  it('a delisted code is re-stamped 09:00:00 of the current day, field 40 D, no trade: not a quote, left out', () => {
    const m = parseQuotes(BATCH_1008, wanted('sz000003', 'sh600000'))
    expect(fieldsOf(BATCH_1008, 'sz000003')[30]).toBe('20261008090000')
    expect(fieldsOf(BATCH_1008, 'sz000003')[40]).toBe('D')
    expect(m.has('sz000003')).toBe(false)
    expect(m.get('sh600000')).toMatchObject({ date: '2026-10-08', time: '16:14:57', last: 9.7, preClose: 9.48, volume: 115_026_900, halted: false })
  })

  // The 600005 line has two extra book-shaped pairs, so its timestamp is field 34 and field 30 is
  // `0`: such a record is skipped, and the other instruments of the answer are still read.
  it('a delisted line with a shifted timestamp does not sink the rest of the batch', () => {
    expect(fieldsOf(BATCH_1008, 'sh600005')[34]).toBe('20261008090000')
    const m = parseQuotes(BATCH_1008, wanted('sz000003', 'sh600005', 'sh600000'))
    expect(m.get('sh600000')).toMatchObject({ last: 9.7, halted: false })
  })

  it('a suspended stock (2026): field 40 S, last = previous close, zero trade, empty book, today\'s stamp', () => {
    const f = fieldsOf(SUSPENDED_2026, 'sz002731')
    expect(f[40]).toBe('S')
    expect(f.slice(9, 29).every((v, i) => (i % 2 === 0 ? v === '0.00' : v === '0'))).toBe(true)
    expect(parseQuotes(SUSPENDED_2026, wanted('sz002731')).get('sz002731')).toEqual({
      code: 'sz002731', name: '*ST萃华', date: '2026-09-02', time: '16:14:39', last: 0.77, open: 0, high: 0, low: 0,
      preClose: 0.77, volume: 0, amount: 0, turnover: 0, halted: true, traded: false,
    })
  })

  it('a suspended stock (2017): field 40 S, last written 0.00, read as the previous close', () => {
    expect(fieldsOf(SUSPENDED_2017, 'sz300104')[3]).toBe('0.00')
    expect(fieldsOf(SUSPENDED_2017, 'sz300104')[40]).toBe('S')
    expect(parseQuotes(SUSPENDED_2017, wanted('sz300104')).get('sz300104')).toMatchObject({
      date: '2017-05-17', time: '15:01:33', last: 30.68, preClose: 30.68, volume: 0, halted: true,
    })
  })

  describe('in the opening call auction (2025-05-09 09:22:33)', () => {
    it('shows the virtual matched price as last, no volume, the matched and unmatched volume in the book', () => {
      const f = fieldsOf(AUCTION_0509_LINE, 'sz002241')
      expect(f.slice(9, 13)).toEqual(['22.26', '1004', '0.00', '0']) // bid1 = the matched volume
      expect(f.slice(19, 23)).toEqual(['22.26', '1004', '0.00', '558']) // ask2 = the unmatched volume
      expect(f[40]).toBe('') // not suspended
      expect(f[50]).toBe('-558')
      expect(parseQuotes(AUCTION_0509_LINE, wanted('sz002241')).get('sz002241')).toMatchObject({
        date: '2025-05-09', time: '09:22:33', last: 22.26, preClose: 22.27, open: 0, high: 0, low: 0, volume: 0, amount: 0,
      })
    })

    // No volume and no open/high/low, but field 40 is empty (the suspension flag is `S`): in the
    // auction, not suspended, and no trade yet.
    it('is not halted', () => {
      expect(parseQuotes(AUCTION_0509_LINE, wanted('sz002241')).get('sz002241')).toMatchObject({ halted: false, traded: false })
    })
  })
})

// Lines taken during the continuous session (test/fixtures/tencent/SOURCE.md): 002241 at 09:42:09
// and the HK r_ form of 09660 at 14:14:52 and 09:43:13. Published with a line break where the wire
// has a space (field 60 of the A-share line, inside the HK timestamp); the tests put the space back.
const SESSION_0509 = fixture('qt-sz002241-session-2025-05-09-094209.txt').replace('~\n~', '~ ~')
const HK_0429 = fixture('qt-r_hk09660-session-2025-04-29-141452.txt').replace('/29\n14', '/29 14')
const HK_0509 = fixture('qt-r_hk09660-session-2025-05-09-094313.txt').replace('/09\n09', '/09 09')

describe('tencent quotes in the continuous session (captured lines)', () => {
  it('an A-share line at 09:42:09: last, open, running volume and amount, the live book', () => {
    expect(parseQuotes(SESSION_0509, wanted('sz002241')).get('sz002241')).toEqual({
      code: 'sz002241', name: '歌尔股份', date: '2025-05-09', time: '09:42:09', last: 21.92, open: 22.14, high: 22.16, low: 21.84,
      preClose: 22.27, volume: 10_987_200, amount: 241_180_000, turnover: 0.36, halted: false, traded: true,
    })
    const f = fieldsOf(SESSION_0509, 'sz002241')
    expect(f).toHaveLength(87)
    expect(f.slice(9, 11)).toEqual(['21.91', '25']) // bid1
    expect(f.slice(19, 21)).toEqual(['21.92', '86']) // ask1
    expect(f[40]).toBe('')
  })

  it('the A-share line adds up: change, average price, caps, outer + inner short of the volume by the open\'s match', () => {
    const f = fieldsOf(SESSION_0509, 'sz002241').map((x) => x.trim())
    const n = (k: number) => Number(f[k])
    expect(n(31)).toBeCloseTo(n(3) - n(4), 6) // change
    expect(n(32)).toBeCloseTo(((n(3) - n(4)) / n(4)) * 100, 1)
    const [last, lots, cny] = f[35].split('/').map(Number)
    expect([last, lots]).toEqual([n(3), n(6)])
    expect(cny / (lots * 100)).toBeCloseTo(n(51), 2) // 21.95: the volume is lots
    expect(cny / (lots * 100)).toBeGreaterThanOrEqual(n(34))
    expect(cny / (lots * 100)).toBeLessThanOrEqual(n(33))
    expect(n(7) + n(8)).toBe(109_853) // 19 lots short of 109872: the opening auction's trades are neither
    expect((n(6) * 100) / n(72) * 100).toBeCloseTo(n(38), 2)
    expect((n(72) * n(3)) / 1e8).toBeCloseTo(n(44), 1)
  })

  it('an HK line (r_ form): shares and HKD, turnover at field 59, the HK timestamp', () => {
    const hk = (text: string) => parseQuotes(text, new Map([['r_hk09660', parseSymbol('hk09660')]])).get('hk09660')
    expect(hk(HK_0429)).toEqual({
      code: 'hk09660', name: '地平线机器人-W', date: '2025-04-29', time: '14:14:52', last: 6.34, open: 5.8, high: 6.45, low: 5.71,
      preClose: 5.69, volume: 210_980_204, amount: 1_295_585_259.04, turnover: 1.9, halted: false, traded: true,
    })
    expect(hk(HK_0509)).toMatchObject({ date: '2025-05-09', time: '09:43:13', last: 6.86, preClose: 7, volume: 21_157_200, amount: 144_331_073, turnover: 0.19 })
  })

  it('the HK lines add up: change, average price (field 73), turnover on the float (field 70)', () => {
    for (const text of [HK_0429, HK_0509]) {
      const f = fieldsOf(text, 'r_hk09660')
      const n = (k: number) => Number(f[k])
      expect(n(31)).toBeCloseTo(n(3) - n(4), 6)
      expect(n(32)).toBeCloseTo(((n(3) - n(4)) / n(4)) * 100, 1)
      expect(n(37) / n(36)).toBeCloseTo(n(73), 2)
      expect((n(36) / n(70)) * 100).toBeCloseTo(n(59), 1)
    }
  })
})

// One qt.gtimg.cn answer for HK, SH, SZ and US codes, taken about 00:36 Beijing time on Saturday
// 2026-04-18 (the US line is stamped 12:36 US Eastern on the Friday): the A-share and HK lines are
// Friday's closing lines, the US line is in the US session (test/fixtures/tencent/SOURCE.md).
const MIXED_0417 = fixture('qt-hk09988-hk01024-sh600250-sz002103-usAAPL-2026-04-17.txt')

describe('tencent quotes: a mixed batch taken in the US session, the Beijing weekend', () => {
  const codes = ['hk09988', 'hk01024', 'sh600250', 'sz002103', 'usAAPL']
  const m = parseQuotes(MIXED_0417, new Map(codes.map((c) => [c.toLowerCase(), parseSymbol(c)])))

  it('reads every market of the batch, records separated by "; " on one line', () => {
    expect([...m.keys()].sort()).toEqual(['hk01024', 'hk09988', 'sh600250', 'sz002103', 'usAAPL'].sort())
    expect(m.get('sh600250')).toEqual({
      code: 'sh600250', name: '南京商旅', date: '2026-04-17', time: '16:14:02', last: 11.51, open: 11.51, high: 11.8, low: 11.35,
      preClose: 11.61, volume: 24_902_600, amount: 287_170_000, turnover: 7.96, halted: false, traded: true,
    })
    expect(m.get('hk09988')).toMatchObject({ date: '2026-04-17', time: '16:08:23', last: 136.4, preClose: 135.8, volume: 83_379_143, amount: 11_353_024_551.9, turnover: 0.44 })
  })

  it('reads the US line: Eastern time, shares and USD, no turnover read (the host sends one at field 38)', () => {
    expect(m.get('usAAPL')).toEqual({
      code: 'usAAPL', name: '苹果', date: '2026-04-17', time: '12:36:00', last: 271.42, open: 266.96, high: 272.3, low: 266.72,
      preClose: 263.4, volume: 28_298_056, amount: 7_614_043_089, turnover: null, halted: false, traded: true,
    })
    const f = fieldsOf(MIXED_0417, 'usAAPL')
    expect(f).toHaveLength(71)
    expect(f[35]).toBe('USD') // not last/volume/amount as on A-share lines
    expect((Number(f[6]) / Number(f[63])) * 100).toBeCloseTo(Number(f[38]), 2) // 0.19 % of 14672068878 shares
  })

  it('adds up: change, average price, and outer + inner = volume on the A-share closing lines', () => {
    for (const code of ['sh600250', 'sz002103']) {
      const f = fieldsOf(MIXED_0417, code).map(Number)
      expect(f[31]).toBeCloseTo(f[3] - f[4], 6)
      expect(f[7] + f[8]).toBe(f[6])
      expect(Number(fieldsOf(MIXED_0417, code)[35].split('/')[2]) / (f[6] * 100)).toBeCloseTo(f[51], 2)
    }
    const us = fieldsOf(MIXED_0417, 'usAAPL').map(Number)
    expect(us[31]).toBeCloseTo(us[3] - us[4], 6)
    expect(us[37] / us[6]).toBeCloseTo(us[67], 2) // 269.07
    for (const code of ['hk09988', 'hk01024']) {
      const f = fieldsOf(MIXED_0417, code).map(Number)
      expect(f[37] / f[36]).toBeCloseTo(f[73], 2)
      expect((f[36] / f[70]) * 100).toBeCloseTo(f[59], 1)
    }
  })
})


// Three US lines as GBK bytes, asked between 13:15 and 13:25 Beijing on Wednesday 2026-07-08 (the
// A-share session; 01:15 US Eastern, after the after-hours): each line is the 2026-07-07 close.
// test/fixtures/tencent/SOURCE.md
describe('tencent quotes: US lines during the A-share session (GBK bytes as sent)', () => {
  const text = new TextDecoder('gbk').decode(readFileSync('test/fixtures/tencent/qt-usAAPL-usMSFT-usBRK.B-session-2026-07-08.txt'))
  const m = parseQuotes(text, new Map(['usAAPL', 'usMSFT'].map((c) => [c.toLowerCase(), parseSymbol(c)])))

  it('reads the closing lines of the US session before, in Eastern time, names decoded from GBK', () => {
    expect(m.get('usAAPL')).toEqual({
      code: 'usAAPL', name: '苹果', date: '2026-07-07', time: '16:00:01', last: 310.66, open: 315.29, high: 315.48, low: 310.15,
      preClose: 312.66, volume: 42_490_002, amount: 13_269_110_623, turnover: null, halted: false, traded: true,
    })
    expect(m.get('usMSFT')).toMatchObject({ name: '微软', last: 388.84, preClose: 386.74, volume: 29_297_524 })
    expect(fieldsOf(text, 'usBRK.B')[1]).toBe('伯克希尔B')
  })

  it('adds up: change and percent against the previous close, turnover over the shares at field 62 (BRK.B: all classes, not the 63rd), 71 fields a line', () => {
    for (const code of ['usAAPL', 'usMSFT', 'usBRK.B']) {
      const f = fieldsOf(text, code)
      expect(f).toHaveLength(71)
      const n = f.map(Number)
      expect(n[31]).toBeCloseTo(n[3] - n[4], 6)
      expect(n[32]).toBeCloseTo(((n[3] - n[4]) / n[4]) * 100, 1)
      expect((n[6] / n[62]) * 100).toBeCloseTo(n[38], 2)
    }
  })
})

// usAAPL asked at 10:05 US Eastern on 2026-07-08 (22:05 Beijing, night): a live line of the US
// session, stamped within seconds of the clock. test/fixtures/tencent/SOURCE.md
describe('tencent quotes: a US line in the US session, the Beijing night (GBK bytes as sent)', () => {
  const text = new TextDecoder('gbk').decode(readFileSync('test/fixtures/tencent/qt-usAAPL-regular-2026-07-08-2205.txt'))

  it('reads the live line: the day so far, against the 2026-07-07 close', () => {
    const m = parseQuotes(text, new Map([['usaapl', parseSymbol('usAAPL')]]))
    expect(m.get('usAAPL')).toEqual({
      code: 'usAAPL', name: '苹果', date: '2026-07-08', time: '10:05:00', last: 309, open: 311.91, high: 312, low: 307.05,
      preClose: 310.66, volume: 5_356_467, amount: 1_658_566_494, turnover: null, halted: false, traded: true,
    })
    const n = fieldsOf(text, 'usAAPL').map(Number)
    expect(n[31]).toBeCloseTo(n[3] - n[4], 6)
    // No book in the session line: bid and ask fields are all 0.
    expect(n.slice(9, 29).every((v) => v === 0)).toBe(true)
    expect(n[37] / n[36]).toBeGreaterThan(n[34])
    expect(n[37] / n[36]).toBeLessThan(n[33])
  })
})

// Three US indexes in the same 13:15–13:25 Beijing window of 2026-07-08, the 2026-07-07 close.
describe('tencent quotes: US index lines (the index held them as text; written back as GBK)', () => {
  const text = new TextDecoder('gbk').decode(readFileSync('test/fixtures/tencent/qt-usDJI-usIXIC-usINX-session-2026-07-08.txt'))

  it('reads the indexes, and their lines leave share, cap and ratio fields empty', () => {
    // Our us.SPX is Tencent's usINX (src/data/markets.ts).
    const m = parseQuotes(text, new Map([['usdji', parseSymbol('us.DJI')], ['usixic', parseSymbol('us.IXIC')], ['usinx', parseSymbol('us.SPX')]]))
    expect([...m.values()].map((q) => [q.name, q.last, q.preClose])).toEqual([
      ['道琼斯', 52925.15, 53055.91],
      ['纳斯达克', 25818.69, 26121.16],
      ['标普500', 7503.85, 7537.43],
    ])
    for (const name of ['usDJI', 'usIXIC', 'usINX']) {
      const f = fieldsOf(text, name)
      expect(f).toHaveLength(71)
      expect(f[56]).toBe('ZS')
      expect([38, 39, 44, 45, 62, 63].map((k) => f[k])).toEqual(['', '', '', '', '', ''])
      expect(Number(f[31])).toBeCloseTo(Number(f[3]) - Number(f[4]), 6)
    }
  })
})

// usAAPL at 04:12 EDT on 2026-07-08 (16:12 Beijing, after the A-share close): the US pre-market
// leaves the line as the 07-07 close, the same bytes as the 13:15 batch's. test/fixtures/tencent/SOURCE.md
describe('tencent quotes: a US line in the US pre-market (GBK bytes as sent)', () => {
  it('is the previous close, unchanged since the afternoon', () => {
    const pre = new TextDecoder('gbk').decode(readFileSync('test/fixtures/tencent/qt-usAAPL-premarket-2026-07-08-1612.txt'))
    const batch = new TextDecoder('gbk').decode(readFileSync('test/fixtures/tencent/qt-usAAPL-usMSFT-usBRK.B-session-2026-07-08.txt'))
    expect(fieldsOf(pre, 'usAAPL')).toEqual(fieldsOf(batch, 'usAAPL'))
    expect(parseQuotes(pre, new Map([['usaapl', parseSymbol('usAAPL')]])).get('usAAPL')).toMatchObject({ date: '2026-07-07', time: '16:00:01', last: 310.66 })
  })
})
