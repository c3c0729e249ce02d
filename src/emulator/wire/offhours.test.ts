/**
 * The hosts' quote lines outside the continuous session, over the real market model, in the
 * shapes of the captures in test/fixtures/{tencent,sina}/ (SOURCE.md): the last session's final
 * line at night, the re-stamped morning line, the opening auction, a suspension.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEmulatorFetch, resetEmulator, setClock } from '../control'
import { market } from '../market'
import { fixed } from './format'

const emu = createEmulatorFetch(market)
const SINA = { headers: { Referer: 'https://finance.sina.com.cn/' } }
const at = (iso: string) => Date.parse(`${iso}+08:00`)
const gbk = async (url: string, init?: RequestInit) => new TextDecoder('gbk').decode(await (await emu(url, init)).arrayBuffer())

async function tencent(code: string, now: number): Promise<string[]> {
  setClock(now)
  return new RegExp(`v_${code}="([^"]*)"`).exec(await gbk(`https://qt.gtimg.cn/q=${code}`))![1].split('~')
}
async function sina(code: string, now: number): Promise<string[]> {
  setClock(now)
  return new RegExp(`hq_str_${code}="([^"]*)"`).exec(await gbk(`https://hq.sinajs.cn/list=${code}`, SINA))![1].split(',')
}

beforeAll(() => resetEmulator())
afterAll(() => resetEmulator())

const moutai = market.byCode('sh600519')!
// 2026-11-19 (Thursday) and 2026-11-20 (Friday) are trading days.
const thursday = market.dailyBars(moutai, '2026-11-19', '2026-11-19', at('2026-11-20T12:00:00'))[0]
const friday = market.dailyBars(moutai, '2026-11-20', '2026-11-20', at('2026-11-20T16:00:00'))[0]

describe('Tencent qt lines off-hours', () => {
  it('at night: the last session\'s line stamped 16:14:58, with its volume and closing book (fixture qt-sh600519-2026-09-30-161458)', async () => {
    const f = await tencent('sh600519', at('2026-11-20T02:00:00'))
    expect([f[3], f[4], f[5], f[6], f[30], f[40]]).toEqual([fixed(thursday.close, 2), fixed(thursday.preClose, 2), fixed(thursday.open, 2), String(Math.round(thursday.volume / 100)), '20261119161458', ''])
    expect(Number(f[9])).toBeGreaterThan(0)
    expect(Number(f[19])).toBeGreaterThan(Number(f[9]))
  })

  it('from 09:00: today\'s date at 09:00:00, last = previous close, zeros and an empty book', async () => {
    const f = await tencent('sh600519', at('2026-11-20T09:05:00'))
    expect([f[3], f[4], f[5], f[6], f[30], f[33], f[34], f[40]]).toEqual([fixed(thursday.close, 2), fixed(thursday.close, 2), '0.00', '0', '20261120090000', '0.00', '0.00', ''])
    expect(f.slice(9, 29).every((x, k) => x === (k % 2 === 0 ? '0.00' : '0'))).toBe(true)
  })

  it('in the auction: field 3 the indicative price, bid1 = ask1 with the matched lots, the rest on level 2 at 0.00 (fixture qt-sz002241-auction-…)', async () => {
    const f = await tencent('sh600519', at('2026-11-20T09:22:33'))
    const q = market.live(moutai, at('2026-11-20T09:22:33'), 'tencent')
    const price = fixed(friday.open, 2)
    const lots = String(q.auction!.matched / 100)
    const rest = String(q.auction!.unmatched / 100)
    expect([f[3], f[5], f[6], f[30], f[35], f[36], f[37]]).toEqual([price, '0.00', '0', '20261120092233', `${price}/0/0`, '0', '0'])
    expect([f[9], f[10], f[19], f[20]]).toEqual([price, lots, price, lots])
    const level2 = q.auction!.side === 'bid' ? [f[11], f[12]] : [f[21], f[22]]
    expect(level2).toEqual(['0.00', rest])
    expect(f[50]).toBe(String((q.auction!.side === 'bid' ? 1 : -1) * (q.auction!.unmatched / 100)))
  })

  it('a suspended stock: field 40 S, last = previous close, zeros, empty book (fixture qt-sz002731-suspended-…)', async () => {
    const wednesday = at('2026-11-18T10:30:00')
    const s = market.instruments().find((i) => i.kind === 'stock' && market.live(i, wednesday, 'tencent').state === 'suspended')!
    const q = market.live(s, wednesday, 'tencent')
    const f = await tencent(s.code, wednesday)
    expect([f[3], f[4], f[5], f[6], f[40], f[84]]).toEqual([fixed(q.bar.preClose, 2), fixed(q.bar.preClose, 2), '0.00', '0', 'S', 'AE'])
  })
})

describe('Sina hq lines off-hours', () => {
  it('at night: the last session\'s line, stamped after the post-close session, with its book and its post-close trade (fixtures hq-ashare-hk-us-2026-09-29-…, hq-post-close-D-field-…)', async () => {
    const f = await sina('sh600519', at('2026-11-21T20:05:00'))
    expect([f[1], f[3], f[8], f[30], f[31], f[32]]).toEqual([fixed(friday.open, 3), fixed(friday.close, 3), String(friday.volume), '2026-11-20', '15:34:59', '00'])
    expect(f[33]).toMatch(/^D\|[1-9]\d*00\|\d+\.\d{2}$/)
    expect(Number(f[11])).toBeGreaterThan(0)
  })

  it('from 09:00: today\'s date, last 0.000, zeros, status 00 (fixture hq-sh600519-preopen-2026-09-30-090726)', async () => {
    const f = await sina('sh600519', at('2026-11-20T09:07:26'))
    expect([f[1], f[2], f[3], f[8], f[10], f[11], f[30], f[31], f[32]]).toEqual(['0.000', fixed(thursday.close, 3), '0.000', '0', '0', '0.000', '2026-11-20', '09:07:26', '00'])
  })

  it('in the auction: last stays at the previous close, bid = ask = the indicative price, the rest at 0.000 (fixture hq-sh603866-preopen-auction-…)', async () => {
    const now = at('2026-11-20T09:16:00')
    const q = market.live(moutai, now, 'sina')
    const f = await sina('sh600519', now)
    const price = fixed(friday.open, 3)
    expect([f[3], f[6], f[7], f[8], f[10], f[11], f[20], f[21]]).toEqual([fixed(thursday.close, 3), price, price, '0', String(q.auction!.matched), price, String(q.auction!.matched), price])
    const level2 = q.auction!.side === 'bid' ? [f[12], f[13]] : [f[22], f[23]]
    expect(level2).toEqual([String(q.auction!.unmatched), '0.000'])
  })

  it('a suspended stock: status 03, last 0.000, the previous close given (fixture hq-…-suspended-2015-08-14)', async () => {
    const wednesday = at('2026-11-18T10:30:00')
    const s = market.instruments().find((i) => i.kind === 'stock' && market.live(i, wednesday, 'sina').state === 'suspended')!
    const f = await sina(s.code, wednesday)
    expect([f[2], f[3], f[8], f[32]]).toEqual([fixed(market.live(s, wednesday).bar.preClose, 3), '0.000', '0', '03'])
  })
})
