import { describe, expect, it } from 'vitest'
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
