import { describe, expect, it } from 'vitest'
import { createEmulatorFetch, resetEmulator, setClock } from '../../emulator/control'
import { market } from '../../emulator/market'
import { ChannelError } from '../errors'
import { failureKind, fakeContext } from '../testkit'
import { fetchHotRank, hotRankBody, HOT_RANK_URLS, instrumentOfSc, parseHotRank } from './hot-rank'

// The row shape measured live in 2026 (no name, no price; `hisRc` the rank change), and the
// upstreams.md §4.1 sample with `rc` as well.
const MEASURED = '{"globalId":"786e4c21-70dc-435a-93bb-38","message":"success","status":0,"code":0,"data":[{"sc":"SZ000938","rk":1,"hisRc":1},{"sc":"SH600519","rk":2,"hisRc":-3},{"sc":"BJ830799","rk":3,"hisRc":0}]}'
const DOCUMENTED = '{"status":0,"message":"success","data":[{"sc":"SH600519","rk":1,"rc":2,"hisRc":15},{"sc":"SZ000001","rk":2,"rc":-1,"hisRc":3}]}'

describe('parseHotRank', () => {
  it('reads codes into our prefixes with rank and rank change', () => {
    expect(parseHotRank(MEASURED).map((e) => [e.instrument.code, e.rank, e.rankChange])).toEqual([
      ['sz000938', 1, 1], ['sh600519', 2, -3], ['bj830799', 3, 0],
    ])
    expect(parseHotRank(DOCUMENTED).map((e) => e.rankChange)).toEqual([15, 3])
  })

  it('reads US and HK codes, ETFs, and leaves out codes we do not serve', () => {
    expect(instrumentOfSc('US|AAPL')?.code).toBe('usAAPL')
    expect(instrumentOfSc('HK|00700')?.code).toBe('hk00700')
    expect(instrumentOfSc('SH510300')?.kind).toBe('etf')
    // A B share: a well-formed code outside our ranges.
    const rows = parseHotRank('{"status":0,"data":[{"sc":"SH900901","rk":1},{"sc":"SH600519","rk":2}]}')
    expect(rows.map((e) => [e.instrument.code, e.rank, e.rankChange])).toEqual([['sh600519', 2, null]])
  })

  it.each([
    ['not JSON', '<html>502</html>'],
    ['an error status', '{"status":-1,"message":"srcSecurityCode 股票代码不能为空","data":null}'],
    ['no data list', '{"status":0,"data":{"list":[]}}'],
    ['a row without sc', '{"status":0,"data":[{"rk":1}]}'],
    ['a malformed code', '{"status":0,"data":[{"sc":"600519","rk":1}]}'],
    ['ranks out of order', '{"status":0,"data":[{"sc":"SH600519","rk":2},{"sc":"SZ000001","rk":1}]}'],
    ['a repeated rank', '{"status":0,"data":[{"sc":"SH600519","rk":1},{"sc":"SZ000001","rk":1}]}'],
    ['a code twice', '{"status":0,"data":[{"sc":"SH600519","rk":1},{"sc":"SH600519","rk":2}]}'],
    ['a fractional rank change', '{"status":0,"data":[{"sc":"SH600519","rk":1,"hisRc":1.5}]}'],
  ])('refuses %s as malformed', (_why, text) => {
    expect(failureKind(() => parseHotRank(text))).toBe('malformed')
  })

  it('calls an empty list empty', async () => {
    const { ctx } = fakeContext(() => ({ body: '{"status":0,"message":"success","data":[]}' }))
    await expect(fetchHotRank(ctx, 'cn')).rejects.toMatchObject({ kind: 'empty' } satisfies Partial<ChannelError>)
  })

  it('POSTs the page body Guba expects', () => {
    expect(JSON.parse(hotRankBody('cn'))).toEqual({ appId: 'appId01', globalId: '786e4c21-70dc-435a-93bb-38', marketType: '', pageNo: 1, pageSize: 100 })
    expect(JSON.parse(hotRankBody('us')).marketType).toBe('000004')
  })
})

describe('fetchHotRank over the emulator', () => {
  it('reads 100 rows of each list: listed instruments, ranked 1..100, deterministic per day', async () => {
    resetEmulator()
    setClock(Date.parse('2026-11-20T10:30:00+08:00'))
    const ctx = { fetch: createEmulatorFetch(market), timeoutMs: 5000 }
    const cn = await fetchHotRank(ctx, 'cn')
    expect(cn.map((e) => e.rank)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1))
    for (const e of cn) {
      expect(['stock', 'etf']).toContain(e.instrument.kind)
      expect(market.byCode(e.instrument.code)!.listDate <= '2026-11-20').toBe(true)
    }
    const us = await fetchHotRank(ctx, 'us')
    expect(us.every((e) => e.instrument.kind === 'us')).toBe(true)
    expect((await fetchHotRank(ctx, 'cn')).map((e) => e.instrument.code)).toEqual(cn.map((e) => e.instrument.code))
    setClock(null)
  })

  it('answers a GET or a bad body as Guba does, with an error status', async () => {
    const emu = createEmulatorFetch(market)
    const get = await (await emu(HOT_RANK_URLS.cn)).json()
    expect(get).toMatchObject({ status: -1, data: null })
    const bad = await (await emu(HOT_RANK_URLS.cn, { method: 'POST', body: 'nope' })).json()
    expect(bad).toMatchObject({ status: -1 })
  })
})
