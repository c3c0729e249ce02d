import { afterEach, describe, expect, it } from 'vitest'
import { createEmulatorFetch, resetEmulator, setClock, setFault } from '../control'
import { handleEastmoney } from './eastmoney'
import { boardsOf, conceptBoards } from '../market/business'
import { parseFs } from './eastmoney-list'
import { fakeMarket, SUSPENDED } from './fake-market'
import { market } from '../market'

// Thursday 2025-01-02 15:30 Beijing: the session has closed, today's bars are complete.
const NOW = Date.parse('2025-01-02T07:30:00Z')
const A_SHARES = 'm:0 t:6,m:0 t:80,m:1 t:2,m:1 t:23,m:0 t:81 s:2048'
const FIELDS = 'f2,f5,f6,f12,f13,f14,f15,f16,f17,f18,f124,f297'

const url = (params: Record<string, string | number>) =>
  'https://push2.eastmoney.com/api/qt/clist/get?' + new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]))

async function get(params: Record<string, string | number>, now = NOW): Promise<any> {
  const u = new URL(url({ pn: 1, pz: 100, po: 1, np: 1, fltt: 2, invt: 2, fid: 'f12', fs: A_SHARES, fields: FIELDS, ...params }))
  const res = await handleEastmoney(u, new Request(u), fakeMarket, now)
  expect(res.status).toBe(200)
  return res.json()
}

const codes = (body: any) => body.data.diff.map((r: any) => r.f12)

describe('eastmoney clist/get', () => {
  it('lists every A-share stock, descending by code for fid=f12&po=1, with exactly the requested fields', async () => {
    const body = await get({})
    expect(body).toMatchObject({ rc: 0, data: { total: 4 } })
    expect(codes(body)).toEqual(['830799', '600519', '000002', '000001'])
    expect(Object.keys(body.data.diff[0])).toEqual(FIELDS.split(','))
    expect(codes(await get({ po: 0 }))).toEqual(['000001', '000002', '600519', '830799'])
  })

  it('prints each row as ulist.np/get would: the day bar after the close, lots, Beijing trade date', async () => {
    const moutai = (await get({})).data.diff[1]
    const bar = fakeMarket.dailyBars(fakeMarket.byCode('sh600519')!, '2025-01-02', '2025-01-02', NOW)[0]
    expect(moutai).toMatchObject({ f12: '600519', f13: 1, f14: '贵州茅台', f17: bar.open, f15: bar.high, f16: bar.low, f2: bar.close, f18: bar.preClose, f5: bar.volume / 100, f6: bar.amount, f297: 20250102 })
  })

  it('sends "-" prices for a suspended stock, with its last close in f18', async () => {
    const row = (await get({})).data.diff.find((r: any) => `sz${r.f12}` === SUSPENDED)
    for (const f of ['f2', 'f5', 'f6', 'f15', 'f16', 'f17']) expect(row[f]).toBe('-')
    expect(typeof row.f18).toBe('number')
  })

  it('selects boards by fs clause', async () => {
    expect(codes(await get({ fs: 'm:1 t:2' }))).toEqual(['600519'])
    expect(codes(await get({ fs: 'm:0+t:81+s:2048' }))).toEqual(['830799'])
    expect(codes(await get({ fs: 'm:0 t:6,m:1 t:23' }))).toEqual(['000002', '000001'])
    // Terms the emulator does not model (flags) select nothing.
    expect(await get({ fs: 'm:0 f:!2' })).toMatchObject({ rc: 0, data: null })
  })

  it('selects a board\'s constituents with b:BK…, as business.ts assigns them', async () => {
    // Moutai is on 酿酒行业 (BK0477); the constituents of its board include it and only members.
    expect(codes(await get({ fs: 'b:BK0477 f:!50' }))).toContain('600519')
    for (const inst of fakeMarket.instruments().filter((i) => i.kind === 'stock')) {
      const board = boardsOf(inst)[0]
      expect(codes(await get({ fs: `b:${board.code}` }))).toContain(inst.code.slice(2))
    }
  })

  it('answers code, market and name alone as the full rows carry them', async () => {
    const full = (await get({})).data.diff.map((r: any) => ({ f12: r.f12, f13: r.f13, f14: r.f14 }))
    expect((await get({ fields: 'f14,f12,f13' })).data.diff).toEqual(full.map((r: any) => ({ f14: r.f14, f12: r.f12, f13: r.f13 })))
  })

  it('lists the concept boards for m:90 t:3, code and name, every other field "-"', async () => {
    const body = await get({ fs: 'm:90 t:3 f:!50', fields: 'f3,f12,f13,f14', pz: 500 })
    expect(body.data.total).toBe(conceptBoards().length)
    expect(body.data.diff[0]).toEqual({ f3: '-', f12: conceptBoards()[0].code, f13: 90, f14: conceptBoards()[0].name })
    expect(body.data.diff.map((r: any) => r.f14)).toContain('锂电池')
  })

  it('pages with pn and pz, the same total on every page, data:null past the end', async () => {
    const p1 = await get({ pz: 3 })
    const p2 = await get({ pz: 3, pn: 2 })
    expect([p1.data.total, p2.data.total]).toEqual([4, 4])
    expect([...codes(p1), ...codes(p2)]).toEqual(['830799', '600519', '000002', '000001'])
    expect((await get({ pz: 3, pn: 3 })).data).toBeNull()
  })

  it('leaves out stocks not listed by the clock', async () => {
    expect((await get({}, Date.parse('2022-12-30T08:00:00Z'))).data).toBeNull()
  })

  it('sends diff as an object keyed by position without np=1', async () => {
    const { data } = await get({ np: 2 })
    expect(Object.keys(data.diff)).toEqual(['0', '1', '2', '3'])
    expect(data.diff['1'].f12).toBe('600519')
  })

  it('sorts by another fid, rows without a value last', async () => {
    const prices = (await get({ fid: 'f2' })).data.diff.map((r: any) => r.f2)
    expect(prices[3]).toBe('-')
    expect(prices.slice(0, 3)).toEqual([...prices.slice(0, 3)].sort((a: number, b: number) => b - a))
  })

  it('scales prices to integers without fltt=2', async () => {
    const moutai = (await get({ fltt: 1 })).data.diff[1]
    expect(Number.isInteger(moutai.f2)).toBe(true)
  })
})

describe('parseFs', () => {
  it('reads clauses (comma) of terms (space or +), dropping clauses it cannot model', () => {
    expect(parseFs('m:0 t:6,m:1+t:23,b:BK0477,m:0 f:!2')).toEqual([
      [{ key: 'm', value: 0 }, { key: 't', value: 6 }],
      [{ key: 'm', value: 1 }, { key: 't', value: 23 }],
      [{ key: 'b', board: 'BK0477' }],
    ])
  })

  it('reads the industry boards filter, f:!50 holding for every instrument', () => {
    expect(parseFs('m:90 t:2 f:!50')).toEqual([[{ key: 'm', value: 90 }, { key: 't', value: 2 }]])
  })
})

describe('through the emulator fetch', () => {
  afterEach(() => resetEmulator())

  it('answers data:null under the empty fault', async () => {
    setClock(NOW)
    setFault('eastmoney', { kind: 'empty' })
    const body = await (await createEmulatorFetch(fakeMarket)(url({ fs: A_SHARES, np: 1 }))).json()
    expect(body).toMatchObject({ rc: 0, data: null })
  })
})

describe('industry board rows (m:90 t:2): fields made of their constituents', () => {
  // As a real board page (test/fixtures/push2/clist-industry-boards-p1-2026-08-22.json) carries them.
  const AFTER_CLOSE = Date.parse('2026-11-20T16:00:00+08:00')
  const ask = async (fs: string, fields: string, pz = 3) => {
    const u = new URL(url({ pn: 1, pz, po: 0, np: 1, fltt: 2, invt: 2, fid: 'f12', fs, fields }))
    return (await (await handleEastmoney(u, new Request(u), market, AFTER_CLOSE))!.json()) as any
  }

  it('names the constituent up most as the leader (f128, f140, f141) and sums the main net inflow in whole yuan (f62)', async () => {
    const boards = (await ask('m:90 t:2 f:!50', 'f3,f12,f14,f62,f128,f140,f141')).data.diff
    expect(boards).toHaveLength(3)
    for (const b of boards) {
      const members = (await ask(`b:${b.f12} f:!50`, 'f3,f12,f13,f14,f62', 1000)).data.diff.filter((m: any) => typeof m.f3 === 'number')
      const top = Math.max(...members.map((m: any) => m.f3))
      const leader = members.find((m: any) => m.f12 === b.f140)
      expect(leader).toMatchObject({ f14: b.f128, f13: b.f141, f3: top })
      expect(Number.isInteger(b.f62)).toBe(true)
      const net = members.filter((m: any) => typeof m.f62 === 'number').reduce((sum: number, m: any) => sum + m.f62, 0)
      expect(Math.abs(b.f62 - net)).toBeLessThanOrEqual(1)
    }
  })
})
