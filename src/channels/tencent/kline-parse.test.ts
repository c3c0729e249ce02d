import { failureKind } from '../testkit'
import { describe, expect, it } from 'vitest'
import { codeData, parseFqkline, parseMkline } from './kline-parse'
import csi300 from '../../../test/fixtures/tencent/fqkline-sh000300-day-2026-09-30.json?raw'
import csi300Eastmoney from '../../../test/fixtures/push2/kline-sh000300-day-2026-09-30.json?raw'
import tencentHk from '../../../test/fixtures/tencent/hkfqkline-hk00700-day-2026-08-07.json?raw'
import huaci from '../../../test/fixtures/tencent/newfqkline-sz001216-day-2026-09-24.json?raw'
import bj920047 from '../../../test/fixtures/tencent/newfqkline-bj920047-day-2026-09-24.json?raw'
import chinext300059 from '../../../test/fixtures/tencent/newfqkline-sz300059-day-2024-10-10.json?raw'
import m5Moutai from '../../../test/fixtures/tencent/mkline-sh600519-m5-2026-08-28.json?raw'
import m5Lunch from '../../../test/fixtures/tencent/mkline-sh600396-m5-2026-07-23-1130.json?raw'
import usWeekend from '../../../test/fixtures/tencent/fqkline-usAAPL.OQ-day-2026-09-18-weekend.json?raw'
import hkWeekend from '../../../test/fixtures/tencent/fqkline-hk00700-day-2026-09-18-weekend.json?raw'
import usDay320 from '../../../test/fixtures/tencent/usfqkline-usAAPL.OQ-day-320-2026-07-08-131628.json?raw'
import usWeek320 from '../../../test/fixtures/tencent/usfqkline-usAAPL.OQ-week-320-2026-07-08-131631.json?raw'
import usMonth from '../../../test/fixtures/tencent/usfqkline-usAAPL.OQ-month-2026-07-08-131628.json?raw'
import usPre from '../../../test/fixtures/tencent/usfqkline-usAAPL.OQ-day-1-premarket-2026-07-08-161222.json?raw'
import usRegular from '../../../test/fixtures/tencent/usfqkline-usAAPL.OQ-day-1-regular-2026-07-08-220501.json?raw'
import usPost from '../../../test/fixtures/tencent/usfqkline-usAAPL.OQ-day-1-postmarket-2026-07-09-041531.json?raw'

// Shapes of upstreams.md §2.3/§2.4 (invented values).
const DIVIDEND = '{"nd":"2024","fh_sh":"238.82","djr":"2025-01-02","cqr":"2025-01-03","FHcontent":"10派238.82元"}'
const NEWFQ_DAY = `{"code":0,"msg":"","data":{"sh600519":{"qfqday":[
  ["2025-01-02","1510.000","1520.000","1525.000","1505.200","21345.000",{},"0.17","324357.12"],
  ["2025-01-03","1521.000","1498.800","1522.000","1495.000","25012.000",${DIVIDEND},"0.20","375432.00"]],
  "qt":{"sh600519":["1","贵州茅台","600519","1498.80"]},"prec":"1508.500","version":"4"}}}`
const INDEX_WEEK = `{"code":0,"msg":"","data":{"sh000001":{"week":[
  ["2025-01-03","3350.12","3211.43","3351.76","3205.22","1234567890.000",{},"","95432123.45"]],"prec":"3351.76"}}}`
const HK_DAY = `{"code":0,"msg":"","data":{"hk00700":{"qfqday":[
  ["2025-01-02","379.000","380.200","383.000","376.400","15234500.000"],
  ["2025-01-03","381.000","385.000","386.000","380.000","17234000.000",${DIVIDEND}]],"qt":{}}}}`
const US_DAY = `{"code":0,"msg":"","data":{"usAAPL.OQ":{"qfqday":[["2025-01-02","242.900","243.850","245.120","241.330","40234567"]]}}}`
const M5 = `{"code":0,"msg":"","data":{"sh600519":{"m5":[
  ["202501021455","1519.00","1520.50","1521.00","1518.80","312.00",{},"0.02"],
  ["202501021500","1520.50","1520.00","1520.90","1519.60","498.00",{},"0.04"]],
  "qt":{"sh600519":["1","贵州茅台","600519","1520.00"]},"prec":"1508.50"}}}`

const kind = failureKind

describe('parseFqkline', () => {
  it('reads newfqkline rows: close before high, lots and 10k CNY, the dividend object skipped', () => {
    expect(parseFqkline(NEWFQ_DAY, 'sh600519', 'day', 'ashare')).toEqual([
      { date: '2025-01-02', open: 1510, close: 1520, high: 1525, low: 1505.2, volume: 2_134_500, amount: 3_243_571_200, turnover: 0.17 },
      { date: '2025-01-03', open: 1521, close: 1498.8, high: 1522, low: 1495, volume: 2_501_200, amount: 3_754_320_000, turnover: 0.2 },
    ])
  })

  it('falls back to the plain series key and gives an index null turnover', () => {
    const [bar] = parseFqkline(INDEX_WEEK, 'sh000001', 'week', 'ashare')
    expect(bar).toMatchObject({ date: '2025-01-03', close: 3211.43, turnover: null, amount: 954_321_234_500 })
  })

  it('reads 6-column HK and US rows in shares, amount and turnover null', () => {
    const hk = parseFqkline(HK_DAY, 'hk00700', 'day', 'plain')
    expect(hk[1]).toEqual({ date: '2025-01-03', open: 381, close: 385, high: 386, low: 380, volume: 17_234_000, amount: null, turnover: null })
    expect(parseFqkline(US_DAY, 'usAAPL.OQ', 'day', 'plain')[0].volume).toBe(40_234_567)
  })

  it('calls an unknown code or a missing series empty', () => {
    expect(kind(() => parseFqkline('{"code":0,"msg":"","data":{}}', 'sh600519', 'day', 'ashare'))).toBe('empty')
    expect(kind(() => parseFqkline('{"code":0,"msg":"","data":[]}', 'sh600519', 'day', 'ashare'))).toBe('empty')
    expect(kind(() => parseFqkline('{"code":0,"msg":"","data":{"sh600519":{"qt":{}}}}', 'sh600519', 'day', 'ashare'))).toBe('empty')
    expect(kind(() => parseFqkline('{"code":0,"msg":"","data":{"sh600519":{"qfqday":[]}}}', 'sh600519', 'day', 'ashare'))).toBe('empty')
  })

  it.each([
    ['high < low', NEWFQ_DAY.replace('"1525.000","1505.200"', '"1500.000","1505.200"')],
    ['out-of-order dates', NEWFQ_DAY.replace('2025-01-03', '2025-01-01')],
    ['a non-numeric price', NEWFQ_DAY.replace('"1520.000"', '"--"')],
    ['a short row', NEWFQ_DAY.replace('"21345.000",{},"0.17","324357.12"', '')],
    ['a bad date', NEWFQ_DAY.replace('2025-01-02', '20250102')],
    ['a non-zero code', '{"code":-1,"msg":"param error","data":{}}'],
    ['garbage', '<html>oops</html>'],
    ['truncated JSON', NEWFQ_DAY.slice(0, 200)],
  ])('rejects %s as malformed', (_, text) => {
    expect(kind(() => parseFqkline(text, 'sh600519', 'day', 'ashare'))).toBe('malformed')
  })

  it('tolerates a _var prefix', () => {
    expect(codeData('kline_dayqfq=' + US_DAY, 'usAAPL.OQ')).toBeDefined()
  })
})

// Real answers (test/fixtures/tencent/SOURCE.md): CSI 300 over 2026-09-28..30 from fqkline, captured
// together with Eastmoney's kline/get for the same days; 00700 over 2026-08-03..07 with a buyback note.
describe('parseFqkline on captured answers', () => {
  it('reads an index day series (key `day`, extra `qt`/`prec`/`version` keys) in lots', () => {
    const bars = parseFqkline(csi300, 'sh000300', 'day', 'ashare')
    expect(bars.map((b) => b.date)).toEqual(['2026-09-28', '2026-09-29', '2026-09-30'])
    expect(bars[0]).toEqual({ date: '2026-09-28', open: 4423.82, close: 4340.76, high: 4423.82, low: 4323.57, volume: 17_127_737_300, amount: null, turnover: null })
  })

  it('agrees with Eastmoney on the same days: same prices, and both count index volume in lots', () => {
    const tencent = parseFqkline(csi300, 'sh000300', 'day', 'ashare')
    const rows = (JSON.parse(csi300Eastmoney).data.klines as string[]).map((r) => r.split(','))
    rows.forEach(([date, open, close, high, low, lots, amount], i) => {
      expect(tencent[i]).toMatchObject({ date, open: +open, close: +close, high: +high, low: +low, volume: +lots * 100 })
      // Eastmoney's CNY amount over our shares is a CSI 300 member's price (tens of CNY), which
      // only holds if the volume column is lots: read as shares it would be thousands.
      const perShare = +amount / tencent[i].volume
      expect(perShare).toBeGreaterThan(10)
      expect(perShare).toBeLessThan(50)
    })
  })

  it('reads newfqkline rows of 10 columns: lots, 10k CNY and turnover, the same day as the quote line says', () => {
    const bars = parseFqkline(huaci, 'sz001216', 'day', 'ashare')
    // The quote line of 2026-09-24 16:14 (fixtures/tencent/qt-sz001216-…): 428580 lots, 1222641481 CNY, 17.36 %.
    expect(bars[1]).toEqual({ date: '2026-09-24', open: 28.05, close: 28.4, high: 29.5, low: 27.8, volume: 42_858_000, amount: 1_222_641_500, turnover: 17.36 })
    expect(bars[0]).toMatchObject({ date: '2026-09-23', close: 28.31, volume: 57_037_100 })
  })

  it('reads a BJ answer (qfq asked, `day` answered, 11 columns) in lots', () => {
    const [bar] = parseFqkline(bj920047, 'bj920047', 'day', 'ashare')
    expect(bar).toEqual({ date: '2026-09-24', open: 15.66, close: 15.3, high: 15.8, low: 15.18, volume: 3_426_700, amount: 52_811_800, turnover: 1.9 })
    expect(bar.amount! / bar.volume).toBeGreaterThan(bar.low)
    expect(bar.amount! / bar.volume).toBeLessThan(bar.high)
  })

  it('takes a STAR stock\'s volume column as shares', () => {
    const star = NEWFQ_DAY.replaceAll('sh600519', 'sh688981')
    expect(parseFqkline(star, 'sh688981', 'day', 'star').map((b) => b.volume)).toEqual([21_345, 25_012])
    expect(parseFqkline(star, 'sh688981', 'day', 'star')[0]).toMatchObject({ amount: 3_243_571_200, turnover: 0.17 })
    expect(parseMkline(M5.replaceAll('sh600519', 'sh688981'), 'sh688981', 'm5', 'star').map((b) => b.volume)).toEqual([312, 498])
  })

  it('reads HK rows of 6 and 7 columns (a buyback note in the 7th), in shares', () => {
    const bars = parseFqkline(tencentHk, 'hk00700', 'day', 'plain')
    expect(bars).toHaveLength(5)
    expect(bars[0]).toEqual({ date: '2026-08-03', open: 482, close: 490.4, high: 491, low: 480.6, volume: 38_649_910, amount: null, turnover: null })
    expect(bars[4]).toMatchObject({ date: '2026-08-07', close: 478.8, volume: 16_319_939 })
  })
})

describe('parseMkline', () => {
  it('reads YYYYMMDDHHMM bar ends, lots to shares, no amount or turnover', () => {
    expect(parseMkline(M5, 'sh600519', 'm5')).toEqual([
      { date: '2025-01-02 14:55', open: 1519, close: 1520.5, high: 1521, low: 1518.8, volume: 31_200, amount: null, turnover: null },
      { date: '2025-01-02 15:00', open: 1520.5, close: 1520, high: 1520.9, low: 1519.6, volume: 49_800, amount: null, turnover: null },
    ])
  })

  it('rejects out-of-order bars, a bad time and garbage', () => {
    expect(kind(() => parseMkline(M5.replace('202501021500', '202501021450'), 'sh600519', 'm5'))).toBe('malformed')
    expect(kind(() => parseMkline(M5.replace('202501021455', '2025-01-02 14:55'), 'sh600519', 'm5'))).toBe('malformed')
    expect(kind(() => parseMkline('not json', 'sh600519', 'm5'))).toBe('malformed')
  })

  it('calls a missing minute series empty', () => {
    expect(kind(() => parseMkline(M5, 'sh600519', 'm1'))).toBe('empty')
  })
})

// A whole newfqkline answer (300059, ChiNext, asked 2024-11-21 18:21 for the bar of 2024-10-10),
// and two mkline answers (test/fixtures/tencent/SOURCE.md).
describe('newfqkline and mkline on captured answers', () => {
  it('reads a whole newfqkline answer: one 10-column row at 2 decimals beside qt, market, zjlx, prec', () => {
    const doc = JSON.parse(chinext300059).data.sz300059
    expect(Object.keys(doc)).toEqual(['qfqday', 'qt', 'mx_price', 'attribute', 'prec', 'fsStartDate', 'version'])
    expect(doc.qfqday[0]).toHaveLength(10)
    expect(doc.qfqday[0][9]).toBe('')
    const [bar] = parseFqkline(chinext300059, 'sz300059', 'day', 'ashare')
    expect(bar).toEqual({ date: '2024-10-10', open: 24.1, close: 20.55, high: 24.56, low: 19.92, volume: 2_386_326_700, amount: 51_973_140_600, turnover: 17.86 })
  })

  it('the newfqkline row adds up: amount over volume inside the day, turnover on the float of the qt record', () => {
    const [bar] = parseFqkline(chinext300059, 'sz300059', 'day', 'ashare')
    const qt: string[] = JSON.parse(chinext300059).data.sz300059.qt.sz300059
    expect(bar.amount! / bar.volume).toBeGreaterThan(bar.low)
    expect(bar.amount! / bar.volume).toBeLessThan(bar.high)
    expect((bar.volume / Number(qt[72])) * 100).toBeCloseTo(bar.turnover!, 2) // float 13359278683 shares
    expect((bar.close / Number(JSON.parse(chinext300059).data.sz300059.prec) - 1) * 100).toBeCloseTo(-17.47, 2)
  })

  it('reads mkline m5 rows: bar ends, lots, 2-decimal prices', () => {
    const bars = parseMkline(m5Moutai, 'sh600519', 'm5')
    expect(bars.map((b) => b.date)).toEqual(['2026-08-28 14:50', '2026-08-28 14:55', '2026-08-28 15:00'])
    expect(bars[2]).toEqual({ date: '2026-08-28 15:00', open: 1297.11, close: 1297.4, high: 1297.89, low: 1297.1, volume: 73_400, amount: null, turnover: null })
  })

  it('the mkline 8th column is turnover in hundredths of a percent of the float, not percent', () => {
    // 600519's float is 1250081601 shares (the quote lines of 2026, field 72): 44500 shares are
    // 0.00356 % of it, sent as "0.36".
    const rows: string[][] = JSON.parse(m5Moutai).data.sh600519.m5
    for (const r of rows) expect(((Number(r[5]) * 100) / 1_250_081_601) * 100 * 100).toBeCloseTo(Number(r[7]), 1)
    // 600396 at the morning's end: the same ratio of column 8 to volume in both rows (one float).
    const lunch: string[][] = JSON.parse(m5Lunch).data.sh600396.m5
    const floats = lunch.map((r) => (Number(r[5]) * 100 * 100 * 100) / Number(r[7]))
    expect(Math.abs(floats[0] / floats[1] - 1)).toBeLessThan(0.005)
  })

  it('reads the last two m5 bars of a morning (11:25, 11:30)', () => {
    const bars = parseMkline(m5Lunch, 'sh600396', 'm5')
    expect(bars).toEqual([
      { date: '2026-07-23 11:25', open: 15.78, close: 15.97, high: 15.97, low: 15.75, volume: 1_831_500, amount: null, turnover: null },
      { date: '2026-07-23 11:30', open: 15.96, close: 15.89, high: 16, low: 15.87, volume: 1_144_100, amount: null, turnover: null },
    ])
  })
})

// fqkline answers (the sibling of hkfqkline / usfqkline on web.ifzq.gtimg.cn, unadjusted) taken
// on Sunday 2026-09-20 12:43 (test/fixtures/tencent/SOURCE.md): the rows the parser reads for HK
// and US, and the weekend's `qt` record, which is Friday's close.
describe('HK and US day rows on captured weekend answers', () => {
  it('reads US rows: six columns at three decimals, volume in shares', () => {
    const bars = parseFqkline(usWeekend, 'usAAPL.OQ', 'day', 'plain')
    expect(bars.map((b) => b.date)).toEqual(['2026-09-16', '2026-09-17', '2026-09-18'])
    expect(bars[2]).toEqual({ date: '2026-09-18', open: 337.91, close: 336.13, high: 338.49, low: 332.53, volume: 86_588_203, amount: null, turnover: null })
  })

  it('reads HK rows that each carry a buyback note in a seventh column', () => {
    const rows: unknown[][] = JSON.parse(hkWeekend).data.hk00700.day
    expect(rows.every((r) => r.length === 7)).toBe(true)
    const bars = parseFqkline(hkWeekend, 'hk00700', 'day', 'plain')
    expect(bars[2]).toEqual({ date: '2026-09-18', open: 428, close: 419, high: 430.4, low: 419, volume: 28_796_138, amount: null, turnover: null })
  })

  it('agrees with its own qt record, Friday\'s closing line served on Sunday', () => {
    for (const [text, code, stamp] of [[usWeekend, 'usAAPL.OQ', '2026-09-18 16:00:02'], [hkWeekend, 'hk00700', '2026/09/18 16:08:32']]) {
      const doc = JSON.parse(text).data[code]
      const qt: string[] = doc.qt[code]
      expect(doc.qt.market[0]).toMatch(/^2026-09-20 12:43:40\|HK_close_已休市\|SH_close_已休市/)
      expect(qt[30]).toBe(stamp)
      const last = parseFqkline(text, code, 'day', 'plain').at(-1)!
      expect([+qt[5], +qt[3], +qt[33], +qt[34], +qt[6]]).toEqual([last.open, last.close, last.high, last.low, last.volume])
      // Amount over volume is the day's average price, inside its range.
      expect(+qt[37] / +qt[6]).toBeGreaterThan(last.low)
      expect(+qt[37] / +qt[6]).toBeLessThan(last.high)
    }
  })
})

// usfqkline answers recorded with curl on 2026-07-08/09 (test/fixtures/tencent/SOURCE.md): the
// path our channel asks for US stocks, qfq, at four moments of the US day.
describe('usfqkline on captured answers (usAAPL.OQ, 2026-07-08)', () => {
  const doc = (text: string) => JSON.parse(text).data['usAAPL.OQ']
  const qtOf = (text: string): string[] => doc(text).qt['usAAPL.OQ']

  it('reads 320 qfq day bars at two decimals, ending with the close of 2026-07-07', () => {
    const bars = parseFqkline(usDay320, 'usAAPL.OQ', 'day', 'plain')
    expect(bars).toHaveLength(320)
    expect(bars[0].date).toBe('2025-03-27')
    expect(bars.at(-1)).toEqual({ date: '2026-07-07', open: 315.29, close: 310.66, high: 315.48, low: 310.15, volume: 42_490_002, amount: null, turnover: null })
    // The US calendar: no bar on Friday 2026-07-03 (Independence Day observed).
    expect(bars.map((b) => b.date)).not.toContain('2026-07-03')
    const rows: unknown[][] = doc(usDay320).qfqday
    expect(rows.every((r) => /^\d+\.\d{2}$/.test(r[1] as string) && /\.00$/.test(r[5] as string))).toBe(true)
    // Six columns, and a seventh object on the quarterly ex-dividend days.
    const events = rows.filter((r) => r.length === 7)
    expect(rows.every((r) => r.length === 6 || r.length === 7)).toBe(true)
    expect(events.map((r) => r[0])).toEqual(['2025-05-12', '2025-08-11', '2025-11-10', '2026-02-09', '2026-05-11'])
    expect(events.map((r) => (r[6] as { FHcontent: string }).FHcontent).at(-1)).toBe('每股分配0.27美元')
  })

  it('agrees with its own qt record and pandata', () => {
    const qt = qtOf(usDay320)
    const [prev, last] = parseFqkline(usDay320, 'usAAPL.OQ', 'day', 'plain').slice(-2)
    expect([+qt[5], +qt[3], +qt[33], +qt[34], +qt[6]]).toEqual([last.open, last.close, last.high, last.low, last.volume])
    expect(qt[30]).toBe('2026-07-07 16:00:01')
    expect(+qt[4]).toBe(prev.close)
    expect(+qt[31]).toBeCloseTo(last.close - prev.close, 2)
    expect(+qt[37] / +qt[6]).toBeGreaterThan(last.low)
    expect(+qt[37] / +qt[6]).toBeLessThan(last.high)
    // After-hours: 311.42 is 0.76 above the close.
    const pan = doc(usDay320).pandata
    expect(pan.tag).toBe('after')
    expect(+pan.last - last.close).toBeCloseTo(+pan.netchange, 2)
  })

  it('reads week and month bars that add up from the day bars', () => {
    const days = parseFqkline(usDay320, 'usAAPL.OQ', 'day', 'plain')
    const sum = (from: string) => days.filter((b) => b.date >= from).reduce((v, b) => v + b.volume, 0)
    const week = parseFqkline(usWeek320, 'usAAPL.OQ', 'week', 'plain')
    expect(week).toHaveLength(320)
    // The week of 2026-07-06 so far (two sessions): opened Monday, volume the sum.
    expect(week.at(-1)).toMatchObject({ date: '2026-07-07', open: 307.36, close: 310.66, high: 315.48, low: 307, volume: sum('2026-07-06') })
    const month = parseFqkline(usMonth, 'usAAPL.OQ', 'month', 'plain')
    // All the history the host keeps (233 months from March 2007), fewer than the 320 asked.
    expect(month).toHaveLength(233)
    expect(month.at(-1)).toMatchObject({ date: '2026-07-07', open: 293.44, close: 310.66, volume: sum('2026-07-01') })
  })

  it('reads the pre-market and regular-session answers: one bar, the last close, then the live day', () => {
    expect(parseFqkline(usPre, 'usAAPL.OQ', 'day', 'plain')).toEqual([parseFqkline(usDay320, 'usAAPL.OQ', 'day', 'plain').at(-1)])
    expect(doc(usPre).pandata).toMatchObject({ tag: 'before', time: '2026-07-08 04:12:03' })
    const [live] = parseFqkline(usRegular, 'usAAPL.OQ', 'day', 'plain')
    const qt = qtOf(usRegular)
    expect(qt[0]).toBe('real')
    expect(live).toEqual({ date: '2026-07-08', open: 311.91, close: 309.31, high: 312, low: 307.05, volume: 5_373_670, amount: null, turnover: null })
    expect([+qt[3], +qt[6], qt[30]]).toEqual([live.close, live.volume, '2026-07-08 10:05:09'])
    expect(doc(usRegular).pandata.last).toBe(-1)
  })

  it('falls back to the plain day series the host sends after the close, even when qfq was asked', () => {
    expect(doc(usPost).qfqday).toBeUndefined()
    const bars = parseFqkline(usPost, 'usAAPL.OQ', 'day', 'plain')
    // Yesterday's row at three decimals, today's as the live figures.
    expect(doc(usPost).day.map((r: string[]) => r[2])).toEqual(['310.660', '313.39'])
    expect(bars.map((b) => [b.date, b.close, b.volume])).toEqual([['2026-07-07', 310.66, 42_490_002], ['2026-07-08', 313.39, 41_191_506]])
    expect(+qtOf(usPost)[31]).toBeCloseTo(313.39 - 310.66, 2)
  })
})
