import { describe, expect, it } from 'vitest'
import { readFileSync } from 'node:fs'
import { parseSymbol } from '../../domain/symbols'
import { parseQuotes, statements } from './quotes'

// Real hq.sinajs.cn lines taken outside the continuous session: in the evening, at lunch, before
// the open, in the opening call auction, of a suspended stock. test/fixtures/sina/SOURCE.md says
// where each comes from and how it adds up.
const FIXTURES = import.meta.glob('/test/fixtures/sina/hq-*.txt', { query: '?raw', import: 'default', eager: true }) as Record<string, string>
const fixture = (name: string) => {
  const text = FIXTURES[`/test/fixtures/sina/${name}`]
  if (text === undefined) throw new Error(`no fixture ${name}`)
  return text
}
const wanted = (...codes: string[]) => new Map(codes.map((c) => [c, parseSymbol(c)]))
const fieldsOf = (text: string, name: string) => {
  const rec = statements(text).find(([n]) => n === name)
  if (!rec) throw new Error(`no record ${name}`)
  return rec[1].split(',')
}

const EVENING_0720 = fixture('hq-sz161129-sh000300-evening-2026-07-20.txt')
const LUNCH_0120 = fixture('hq-sz300561-sh601929-lunch-2022-01-20.txt')
const SUSPENDED_0814 = fixture('hq-sh601006-sz300276-sz300353-suspended-2015-08-14.txt')
// Two answers for the same code, one a line: 09:11:30 (before the auction) and 09:16:00 (in it).
const [PREOPEN_0327, AUCTION_0327] = fixture('hq-sh603866-preopen-auction-2023-03-27.txt').trim().split('\n')
const PREOPEN_0930 = fixture('hq-sh600519-preopen-2026-09-30-090726.txt')

describe('sina quotes outside the session (captured lines)', () => {
  it('in the evening (about 20:05) the lines keep the day\'s session, date and time', () => {
    const m = parseQuotes(EVENING_0720, wanted('sz161129', 'sh000300'))
    expect(m.get('sz161129')).toMatchObject({ date: '2026-07-20', time: '15:00:00', last: 1.995, preClose: 1.814, volume: 691_601_588, halted: false })
    expect(m.get('sh000300')).toMatchObject({ date: '2026-07-20', time: '15:35:34', last: 4598.3208, halted: false })
    // The same answer's fx and US lines date the capture: 20:04 Beijing time.
    expect(fieldsOf(EVENING_0720, 'fx_susdcny')[0]).toBe('20:04:37')
    expect(fieldsOf(EVENING_0720, 'gb_uso')[3]).toBe('2026-07-20 20:04:52')
  })

  it('at lunch the lines carry the morning, stamped 11:30', () => {
    const m = parseQuotes(LUNCH_0120, wanted('sz300561', 'sh601929'))
    expect(m.get('sz300561')).toMatchObject({ date: '2022-01-20', time: '11:30:03', last: 17.92, open: 15.51, volume: 55_215_311, halted: false })
    expect(m.get('sh601929')).toMatchObject({ date: '2022-01-20', time: '11:30:00', last: 3.37, volume: 226_528_194, halted: false })
  })

  it('a suspended stock: status 03, no trade, last written 0.000, the answer\'s own date and time', () => {
    expect(fieldsOf(SUSPENDED_0814, 'sz300353')[32]).toBe('03')
    expect(fieldsOf(SUSPENDED_0814, 'sz300276')[32]).toBe('00')
    const m = parseQuotes(SUSPENDED_0814, wanted('sh601006', 'sz300276', 'sz300353'))
    expect(m.get('sz300353')).toMatchObject({ date: '2015-08-14', time: '15:05:33', last: 76.22, preClose: 76.22, volume: 0, halted: true })
    expect(m.get('sz300276')).toMatchObject({ date: '2015-08-14', time: '15:05:33', halted: false })
  })

  describe('before the open (status 00, today\'s date, no trade yet)', () => {
    it('2023: last written as the previous close', () => {
      expect(fieldsOf(PREOPEN_0327, 'sh603866')[32]).toBe('00')
      expect(parseQuotes(PREOPEN_0327, wanted('sh603866')).get('sh603866')).toMatchObject({
        date: '2023-03-27', time: '09:11:30', last: 15.25, preClose: 15.25, open: 0, volume: 0, amount: 0,
      })
    })

    it('2026: last written 0.000, read as the previous close', () => {
      expect(fieldsOf(PREOPEN_0930, 'sh600519')[3]).toBe('0.000')
      expect(parseQuotes(PREOPEN_0930, wanted('sh600519')).get('sh600519')).toMatchObject({
        date: '2026-09-30', time: '09:07:26', last: 1235.58, preClose: 1235.58, open: 0, volume: 0,
      })
    })

    // A line with no trade yet: the status field says `00` (a suspended line says `03`).
    it('2023: not halted', () => {
      expect(parseQuotes(PREOPEN_0327, wanted('sh603866')).get('sh603866')).toMatchObject({ halted: false, traded: false })
    })
    it('2026: not halted', () => {
      expect(parseQuotes(PREOPEN_0930, wanted('sh600519')).get('sh600519')).toMatchObject({ halted: false, traded: false })
    })
  })

  describe('in the opening call auction (2023-03-27 09:16:00)', () => {
    it('bid = ask = the virtual matched price; book level 1 the matched volume, bid2 the unmatched; no volume', () => {
      const f = fieldsOf(AUCTION_0327, 'sh603866')
      expect(f.slice(6, 8)).toEqual(['15.110', '15.110'])
      expect(f.slice(10, 14)).toEqual(['5100', '15.110', '2000', '0.000'])
      expect(f.slice(20, 22)).toEqual(['5100', '15.110'])
      expect(f[32]).toBe('00')
      expect(parseQuotes(AUCTION_0327, wanted('sh603866')).get('sh603866')).toMatchObject({
        date: '2023-03-27', time: '09:16:00', last: 15.25, preClose: 15.25, open: 0, volume: 0,
      })
    })

    // Status 00, in the auction: not suspended, no trade yet.
    it('is not halted', () => {
      expect(parseQuotes(AUCTION_0327, wanted('sh603866')).get('sh603866')).toMatchObject({ halted: false, traded: false })
    })
  })
})

// More real answers (test/fixtures/sina/SOURCE.md): after the close and in the session of 2015,
// the post-close `D|volume|amount` field of 2026, HK and US lines at night, an HK line in session.
describe('sina quotes at other hours (captured lines)', () => {
  const adds = (q: { amount: number | null; volume: number; low: number; high: number }) => {
    expect(q.amount! / q.volume).toBeGreaterThanOrEqual(q.low)
    expect(q.amount! / q.volume).toBeLessThanOrEqual(q.high)
  }

  it('2015 after the close: 33 fields on sh and sz, stamped 15:04:01 and 15:05:12', () => {
    const text = fixture('hq-sh000001-sh600036-sz000001-after-close-2015-07-02.txt')
    for (const c of ['sh000001', 'sh600036', 'sz000001']) expect(fieldsOf(text, c)).toHaveLength(33)
    const m = parseQuotes(text, wanted('sh000001', 'sh600036', 'sz000001'))
    expect(m.get('sh600036')).toMatchObject({ date: '2015-07-02', time: '15:04:01', last: 18.65, preClose: 18.21, volume: 524_774_699, amount: 9_814_648_360 })
    expect(m.get('sz000001')).toMatchObject({ time: '15:05:12', last: 13.75, volume: 198_282_626, amount: 2_762_337_227.52 })
    expect(m.get('sh000001')).toMatchObject({ time: '15:04:01', last: 3912.767 })
    adds(m.get('sh600036')!)
    adds(m.get('sz000001')!)
  })

  it('2015 at lunch (sh, 11:35:47) and in the afternoon session (sz, 13:26:23)', () => {
    const text = fixture('hq-sh000001-sh603019-sz002024-lunch-session-2015-06-19.txt')
    const m = parseQuotes(text, wanted('sh000001', 'sh603019', 'sz002024'))
    expect(m.get('sh603019')).toMatchObject({ date: '2015-06-19', time: '11:35:47', last: 108.32, volume: 1_942_697, halted: false, traded: true })
    expect(m.get('sz002024')).toMatchObject({ date: '2015-06-19', time: '13:26:23', last: 18.11, preClose: 19.34, volume: 167_063_275, amount: 3_060_824_697.67 })
    adds(m.get('sh603019')!)
    adds(m.get('sz002024')!)
  })

  it('2026 after the post-close session: a 34th field D|volume|amount on sz, ChiNext, STAR and sh lines', () => {
    const text = fixture('hq-post-close-D-field-2026-07-17.txt')
    const codes = ['sz002475', 'sz300236', 'sz002472', 'sh688099', 'sz000963']
    const stamps: Record<string, string> = { sz002475: '15:35:00', sz300236: '15:34:45', sz002472: '15:34:30', sh688099: '15:34:59', sz000963: '15:34:45' }
    const m = parseQuotes(text, wanted(...codes))
    for (const c of codes) {
      const f = fieldsOf(text, c)
      expect(f).toHaveLength(34)
      expect(f[32]).toBe('00')
      // The post-close fixed-price trade: D|shares|CNY, at the close price (双环传动: 37.80
      // against a close of 37.79, one tick).
      const [tag, vol, amt] = f[33].split('|')
      expect(tag).toBe('D')
      expect(Math.abs(Number(amt) / Number(vol) - Number(f[3]))).toBeLessThanOrEqual(0.011)
      expect(m.get(c)).toMatchObject({ date: '2026-07-17', time: stamps[c], halted: false, traded: true })
      adds(m.get(c)!)
    }
    // The day's volume and amount stay those of fields 8 and 9: the D trade is not added in.
    expect(m.get('sz002475')).toMatchObject({ last: 58.05, volume: 143_301_667, amount: 8_437_769_036.37 })
  })

  it('night of 2026-09-28: A-share lines of the day (D field; index 16:19:58), gb_ lines of the US session', () => {
    const text = fixture('hq-ashare-hk-us-2026-09-29-0108.txt')
    expect(fieldsOf(text, 'sh600519')).toHaveLength(34)
    expect(fieldsOf(text, 'sh600519')[33]).toBe('D|1900|2363372.00')
    expect(fieldsOf(text, 'sh000001')).toHaveLength(34)
    expect(fieldsOf(text, 'sh000001')[33]).toBe('')
    expect(fieldsOf(text, 'gb_aapl')).toHaveLength(36)
    const m = parseQuotes(text, new Map([
      ['sh600519', parseSymbol('sh600519')], ['sh000001', parseSymbol('sh000001')], ['sh510300', parseSymbol('sh510300')],
      ['gb_aapl', parseSymbol('usAAPL')], ['gb_ixic', parseSymbol('us.IXIC')],
    ]))
    expect(m.get('sh600519')).toMatchObject({ date: '2026-09-28', time: '15:34:59', last: 1243.88, preClose: 1237, volume: 2_821_830, amount: 3_488_720_613 })
    expect(m.get('sh000001')).toMatchObject({ date: '2026-09-28', time: '16:19:58', last: 3823.6206 })
    expect(m.get('sh510300')).toMatchObject({ time: '15:34:59', last: 4.417, volume: 986_408_900 })
    adds(m.get('sh600519')!)
    adds(m.get('sh510300')!)
    // Beijing 01:08 on the 29th is the US session of the 28th; previous close at 26.
    expect(m.get('usAAPL')).toMatchObject({ date: '2026-09-28', time: null, last: 340.15, preClose: 341.07, open: 340.37, high: 342.988, low: 339.32, volume: 14_511_201, amount: 4_950_995_982 })
    // Field 30 is the day's USD amount: inside the day's range over the volume.
    expect(4_950_995_982 / 14_511_201).toBeGreaterThan(339.32)
    expect(4_950_995_982 / 14_511_201).toBeLessThan(342.988)
    expect(m.get('usAAPL')!.last - m.get('usAAPL')!.preClose).toBeCloseTo(-0.92, 4)
    expect(m.get('us.IXIC')).toMatchObject({ date: '2026-09-28', last: 26862.325, preClose: 27068.7165, amount: null })
    // An unknown code answers the empty string.
    expect(statements(text).find(([n]) => n === 'sh999999')).toEqual(['sh999999', ''])
  })

  it('rt_hk in the HK session (2026-08-28 14:04:43): 25 fields, amount HKD at 11, volume at 12', () => {
    const text = fixture('hq-rt_hk00700-session-2026-08-28-140443.txt')
    expect(fieldsOf(text, 'rt_hk00700')).toHaveLength(25)
    const q = parseQuotes(text, new Map([['rt_hk00700', parseSymbol('hk00700')]])).get('hk00700')!
    expect(q).toMatchObject({ name: '腾讯控股', date: '2026-08-28', time: '14:04:43', open: 444, preClose: 447.8, high: 459.8, low: 443.4, last: 455.8, volume: 16_827_718, amount: 7_659_198_934.63 })
    expect(q.last - q.preClose).toBeCloseTo(8, 6)
    adds(q)
  })

  it('a STAR line at 15:00:01 (2024-09-30): 34 fields, the last empty; limit-up close', () => {
    const payload = fixture('hq-sh688047-close-2024-09-30.txt').trim()
    expect(payload.split(',')).toHaveLength(34)
    const q = parseQuotes(`var hq_str_sh688047="${payload}";`, wanted('sh688047')).get('sh688047')!
    expect(q).toMatchObject({ date: '2024-09-30', time: '15:00:01', last: 119.62, preClose: 99.68, volume: 8_256_723 })
    expect(q.last).toBeCloseTo(q.preClose * 1.2, 1)
    adds(q)
  })
})

describe('sina quotes on the night of 2025-07-10 (22:55, the US session)', () => {
  const text = fixture('hq-sh688047-rt_hk09992-gb_amd-night-2025-07-10.txt')
  it('STAR line of the day stamped 15:00:01 (34 fields, no D field in 2025); rt_hk at 16:08:15; gb_ in session', () => {
    expect(fieldsOf(text, 'sh688047')).toHaveLength(34)
    expect(fieldsOf(text, 'sh688047')[33]).toBe('')
    expect(fieldsOf(text, 'rt_hk09992')).toHaveLength(25)
    expect(fieldsOf(text, 'gb_amd')).toHaveLength(36)
    const m = parseQuotes(text, new Map([['sh688047', parseSymbol('sh688047')], ['rt_hk09992', parseSymbol('hk09992')], ['gb_amd', parseSymbol('usAMD')]]))
    expect(m.get('sh688047')).toMatchObject({ date: '2025-07-10', time: '15:00:01', last: 131.95, preClose: 131.6, volume: 1_972_190, amount: 259_739_142 })
    expect(m.get('hk09992')).toMatchObject({ name: '泡泡玛特', date: '2025-07-10', time: '16:08:15', last: 265.6, preClose: 266.8, volume: 5_192_605, amount: 1_385_751_264.4 })
    expect(m.get('usAMD')).toMatchObject({ date: '2025-07-10', last: 144.55, preClose: 138.41, open: 143, high: 145.82, low: 141.85, volume: 32_285_637, amount: 4_641_781_226 })
    expect(m.get('usAMD')!.last - m.get('usAMD')!.preClose).toBeCloseTo(6.14, 6)
    for (const c of ['sh688047', 'hk09992']) {
      const q = m.get(c)!
      expect(q.amount! / q.volume).toBeGreaterThanOrEqual(q.low)
      expect(q.amount! / q.volume).toBeLessThanOrEqual(q.high)
    }
  })
})

describe('sina quotes on a holiday (2026-10-01, about 11:17)', () => {
  // Names arrive as `?`: the source turned GBK into ASCII (test/fixtures/sina/SOURCE.md).
  const text = fixture('hq-holiday-2026-10-01.txt')
  it('keeps the last session: sh ETF 15:34:59, sz ETF 16:29:15, both with the D field; gb_ of the US session', () => {
    for (const c of ['sh513500', 'sz159915']) {
      expect(fieldsOf(text, c)).toHaveLength(34)
      const [, vol, amt] = fieldsOf(text, c)[33].split('|')
      expect(Number(amt) / Number(vol)).toBeCloseTo(Number(fieldsOf(text, c)[3]), 3)
    }
    const m = parseQuotes(text, new Map([
      ['sh513500', parseSymbol('sh513500')], ['sz159915', parseSymbol('sz159915')], ['gb_voo', parseSymbol('usVOO')], ['gb_brk$b', parseSymbol('usBRK-B')],
    ]))
    expect(m.get('sh513500')).toMatchObject({ date: '2026-09-30', time: '15:34:59', last: 2.688, preClose: 2.69, volume: 99_495_124, amount: 268_249_988 })
    expect(m.get('sz159915')).toMatchObject({ date: '2026-09-30', time: '16:29:15', last: 3.154, preClose: 3.162, volume: 1_308_179_333, amount: 4_142_874_902.909 })
    expect(m.get('usVOO')).toMatchObject({ date: '2026-09-30', last: 700.86, preClose: 702.46, volume: 9_876_125, amount: 6_947_864_965 })
    expect(m.get('usBRK-B')).toMatchObject({ date: '2026-09-30', last: 497.95, preClose: 502.35 })
    for (const c of ['sh513500', 'sz159915']) {
      const q = m.get(c)!
      expect(q.amount! / q.volume).toBeGreaterThanOrEqual(q.low)
      expect(q.amount! / q.volume).toBeLessThanOrEqual(q.high)
    }
  })
})

describe('sina ChiNext lines after the post-close session, 2020 and 2023', () => {
  it('ChiNext carries D|shares|CNY and a ~15:35 stamp; the sh main-board line beside it 15:00:03 and an empty 34th field', () => {
    const a = fixture('hq-sh600389-sz300059-after-close-2020-12-25.txt')
    const b = fixture('hq-sz300750-after-close-2023-11-16.txt')
    expect(fieldsOf(a, 'sh600389')).toHaveLength(34)
    expect(fieldsOf(a, 'sh600389')[33]).toBe('')
    expect(fieldsOf(a, 'sz300059')[33]).toBe('D|7200|193176.000')
    expect(fieldsOf(b, 'sz300750')[33]).toBe('D|1200|217380.000')
    const m = parseQuotes(a, wanted('sh600389', 'sz300059'))
    expect(m.get('sh600389')).toMatchObject({ date: '2020-12-25', time: '15:00:03', last: 21.65 })
    expect(m.get('sz300059')).toMatchObject({ date: '2020-12-25', time: '15:36:00', last: 26.83, volume: 207_657_292, amount: 5_547_026_838.47 })
    expect(parseQuotes(b, wanted('sz300750')).get('sz300750')).toMatchObject({ date: '2023-11-16', time: '15:35:00', last: 181.15, volume: 17_466_200 })
    expect(193176 / 7200).toBeCloseTo(26.83, 6)
    expect(217380 / 1200).toBeCloseTo(181.15, 6)
  })
})

// gb_ lines as GBK bytes, asked between 13:15 and 13:25 Beijing on Wednesday 2026-07-08 (the
// A-share session; the US after-hours of 07-07 closed at 08:00 Beijing). test/fixtures/sina/SOURCE.md
describe('sina quotes: gb_ lines during the A-share session (GBK bytes as sent)', () => {
  const text = new TextDecoder('gbk').decode(readFileSync('test/fixtures/sina/hq-gb_aapl-gb_msft-gb_brk.b-gb_brkb-session-2026-07-08.txt'))

  it("reads the regular session's close and keeps the after-hours price out of it", () => {
    const m = parseQuotes(text, new Map([['gb_aapl', parseSymbol('usAAPL')], ['gb_msft', parseSymbol('usMSFT')]]))
    expect(m.get('usAAPL')).toMatchObject({ name: '苹果', last: 310.66, preClose: 312.66, open: 315.29, high: 315.48, low: 310.15, volume: 42_490_002 })
    expect(m.get('usMSFT')).toMatchObject({ name: '微软', last: 388.84, preClose: 386.74, volume: 29_297_516 })
    const f = fieldsOf(text, 'gb_aapl')
    expect(f).toHaveLength(36)
    // Fields 24 and 25: the after-hours and regular closing times; 21 the after-hours price, 22/23 its change on the close.
    expect([f[24], f[25]]).toEqual(['Jul 07 07:59PM EDT', 'Jul 07 04:00PM EDT'])
    expect(Number(f[21]) - Number(f[1])).toBeCloseTo(Number(f[23]), 2)
    expect(((Number(f[21]) - Number(f[1])) / Number(f[1])) * 100).toBeCloseTo(Number(f[22]), 2)
  })

  it('adds up: change on the previous close at 26, and the day amount at 30 within the day range', () => {
    for (const name of ['gb_aapl', 'gb_msft']) {
      const n = fieldsOf(text, name).map(Number)
      expect(n[4]).toBeCloseTo(n[1] - n[26], 4)
      expect(n[2]).toBeCloseTo(((n[1] - n[26]) / n[26]) * 100, 2)
      expect(n[30] / n[10]).toBeGreaterThan(n[7])
      expect(n[30] / n[10]).toBeLessThan(n[6])
    }
  })

  it('answers an unknown dotted class empty, and the retired BRKB ticker with its 2019 line', () => {
    expect(statements(text).find(([n]) => n === 'gb_brk.b')).toEqual(['gb_brk.b', ''])
    expect(fieldsOf(text, 'gb_brkb').slice(0, 4)).toEqual(['BRKB', '0.0000', '0.00', '2019-09-24 09:30:43'])
  })
})

// gb_aapl at 16:12:35 Beijing on 2026-07-08 (04:12 EDT, the US pre-market). test/fixtures/sina/SOURCE.md
describe('sina quotes: a gb_ line in the US pre-market, the Beijing after-close (GBK bytes as sent)', () => {
  const text = new TextDecoder('gbk').decode(readFileSync('test/fixtures/sina/hq-gb_aapl-premarket-2026-07-08-161235.txt'))

  it('keeps the regular close as the last price; the pre-market trade is at 21, stamped at 24', () => {
    const m = parseQuotes(text, new Map([['gb_aapl', parseSymbol('usAAPL')]]))
    expect(m.get('usAAPL')).toMatchObject({ last: 310.66, preClose: 312.66, volume: 42_490_001 })
    const f = fieldsOf(text, 'gb_aapl')
    expect([f[3], f[24], f[25]]).toEqual(['2026-07-08 16:12:35', 'Jul 08 04:12AM EDT', 'Jul 07 04:00PM EDT'])
    expect(Number(f[21]) - Number(f[1])).toBeCloseTo(Number(f[23]), 2)
    expect(((Number(f[21]) - Number(f[1])) / Number(f[1])) * 100).toBeCloseTo(Number(f[22]), 2)
  })
})
