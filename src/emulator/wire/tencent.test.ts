import { describe, expect, it } from 'vitest'
import { qfqAsOf } from './bars'
import { fakeMarket } from './fake-market'
import { fixed } from './format'
import { handleTencent, tencentEmpty } from './tencent'

// Thursday 2025-01-02 15:30 Beijing: the session has closed, today's bar is complete.
const NOW = Date.parse('2025-01-02T07:30:00Z')
const inst = (code: string) => fakeMarket.byCode(code)!

async function fetchRaw(url: string, now = NOW): Promise<Response> {
  const u = new URL(url)
  return handleTencent(u, new Request(u), fakeMarket, now)
}

/** Decodes a qt answer from GBK and splits it into code → fields. */
async function quotes(codes: string, now = NOW): Promise<{ text: string; records: Map<string, string[]> }> {
  const res = await fetchRaw(`https://qt.gtimg.cn/q=${codes}`, now)
  expect(res.headers.get('content-type')).toContain('GBK')
  const text = new TextDecoder('gbk').decode(await res.arrayBuffer())
  const records = new Map<string, string[]>()
  for (const m of text.matchAll(/v_([^=]+)="([^"]*)";/g)) records.set(m[1], m[2].split('~'))
  return { text, records }
}

const json = async (url: string, now = NOW) => (await fetchRaw(url, now)).json() as Promise<any>

describe('tencent qt.gtimg.cn', () => {
  it('answers one GBK statement per code, newline-separated', async () => {
    const { text } = await quotes('sh600519,sz000001')
    expect(text).toMatch(/^v_sh600519="1~贵州茅台~600519~[^"]*";\nv_sz000001="51~平安银行~000001~[^"]*";\n$/)
  })

  it('sends GBK bytes, not UTF-8', async () => {
    const res = await fetchRaw('https://qt.gtimg.cn/q=sh600519')
    const bytes = new Uint8Array(await res.arrayBuffer())
    // 贵 is B9 F3 in GBK (E8 B4 B5 in UTF-8).
    const at = bytes.indexOf(0xb9)
    expect([bytes[at], bytes[at + 1]]).toEqual([0xb9, 0xf3])
    expect(bytes.includes(0xe8)).toBe(false)
  })

  it('lays out the 88-field A-share record with lots, 10k CNY and the book in lots (87 in Shenzhen)', async () => {
    const { records } = await quotes('sh600519')
    const f = records.get('sh600519')!
    expect(f).toHaveLength(88)
    const q = fakeMarket.live(inst('sh600519'), NOW)
    const b = q.bar
    expect(f[3]).toBe(fixed(b.close, 2))
    expect(f[4]).toBe(fixed(b.preClose, 2))
    expect(f[5]).toBe(fixed(b.open, 2))
    expect(f[6]).toBe(String(b.volume / 100))
    expect(Number(f[7]) + Number(f[8])).toBe(b.volume / 100)
    expect([f[9], f[10]]).toEqual([fixed(q.book.bids[0][0], 2), String(q.book.bids[0][1] / 100)])
    expect([f[19], f[20]]).toEqual([fixed(q.book.asks[0][0], 2), String(q.book.asks[0][1] / 100)])
    expect([f[27], f[28]]).toEqual([fixed(q.book.asks[4][0], 2), String(q.book.asks[4][1] / 100)])
    expect(f[30]).toBe('20250102150000')
    expect(f[33]).toBe(fixed(b.high, 2))
    expect(f[34]).toBe(fixed(b.low, 2))
    expect(f[36]).toBe(f[6])
    expect(f[37]).toBe(String(Math.round(b.amount / 1e4)))
    expect(f[38]).toBe(fixed(b.turnover!, 2))
    expect(f[47]).toBe(fixed(b.preClose * 1.1, 2))
    expect(f[61]).toBe('GP-A')
    expect(f[82]).toBe('CNY')
  })

  it('uses market flags 1/51/62 and leaves turnover empty for indexes', async () => {
    const { records } = await quotes('sh000001,sz000001,bj830799,sh510300')
    expect(records.get('sh000001')![0]).toBe('1')
    expect(records.get('sz000001')![0]).toBe('51')
    expect(records.get('bj830799')![0]).toBe('62')
    expect(records.get('sh000001')![38]).toBe('')
    expect(records.get('sh000001')![61]).toBe('ZS')
    expect(records.get('sh510300')![3]).toMatch(/^\d+\.\d{3}$/)
  })

  it('shows a halted instrument at its last close with zero open/high/low and volume', async () => {
    const { records } = await quotes('sz000002')
    const f = records.get('sz000002')!
    expect(f).toHaveLength(87)
    const close = fixed(fakeMarket.live(inst('sz000002'), NOW).bar.close, 2)
    expect([f[3], f[4], f[5], f[33], f[34], f[6]]).toEqual([close, close, '0.00', '0.00', '0.00', '0'])
  })

  it('lays out HK (78 fields, shares, HKD, slash time, turnover at 59, total and HK shares at 69/70) and US (71 fields, listed code, Eastern time, USD at 35, turnover at 38)', async () => {
    const { records } = await quotes('hk00700,usAAPL,usBABA,usDJI')
    const hk = records.get('hk00700')!
    expect(hk).toHaveLength(78)
    const hkInst = inst('hk00700')
    expect([hk[69], hk[70], hk[75]]).toEqual([fixed(hkInst.totalShares!, 2), fixed(hkInst.floatShares!, 2), 'HKD'])
    const hb = fakeMarket.live(inst('hk00700'), NOW).bar
    expect(hk[0]).toBe('100')
    expect(hk[30]).toBe('2025/01/02 15:00:00')
    expect(Number(hk[6])).toBe(hb.volume)
    expect(Number(hk[37])).toBeCloseTo(hb.amount, 2)
    expect(hk[59]).toBe(fixed(hb.turnover!, 2))
    const us = records.get('usAAPL')!
    expect(us).toHaveLength(71)
    expect(us[35]).toBe('USD')
    expect(us[38]).toMatch(/^\d+\.\d{2}$/)
    expect(us[0]).toBe('200')
    expect(us[2]).toBe('AAPL.OQ')
    expect(records.get('usBABA')![2]).toBe('BABA.N')
    expect(records.get('usDJI')![2]).toBe('.DJI')
    expect(us[30]).toBe('2025-01-02 15:00:00')
    expect(Number(us[6])).toBe(fakeMarket.live(inst('usAAPL'), NOW).bar.volume)
    expect(Number(us[37])).toBe(Math.round(fakeMarket.live(inst('usAAPL'), NOW).bar.amount))
  })

  it('answers v_pv_none_match for codes it does not know', async () => {
    const { text } = await quotes('sh999999,sh600519,fuRB2501')
    const lines = text.trim().split('\n')
    expect(lines).toHaveLength(3)
    expect(lines[0]).toBe('v_pv_none_match="1";')
    expect(lines[2]).toBe('v_pv_none_match="1";')
  })

  it('accepts the cache-buster and the UTF-8 path', async () => {
    const plain = await quotes('sh600519')
    const busted = await fetchRaw('https://qt.gtimg.cn/r=0.123&q=sh600519')
    expect(new TextDecoder('gbk').decode(await busted.arrayBuffer())).toBe(plain.text)
    const utf8 = await fetchRaw('https://sqt.gtimg.cn/utf8/q=sh600519')
    expect(await utf8.text()).toContain('贵州茅台')
  })
})

describe('tencent newfqkline', () => {
  const url = (param: string) => `https://proxy.finance.qq.com/ifzqgtimg/appstock/app/newfqkline/get?param=${param}`

  it('answers qfq day rows of 10 columns at 2 decimals with {} in the 7th, turnover and amount in 10k, and "" last', async () => {
    const body = await json(url('sh600519,day,,,3,qfq'))
    expect(body.code).toBe(0)
    const node = body.data.sh600519
    expect(Object.keys(node)).toEqual(['qfqday', 'qt', 'prec', 'version'])
    expect(node.qfqday).toHaveLength(3)
    const last = node.qfqday[2]
    expect(last).toHaveLength(10)
    const raw = fakeMarket.dailyBars(inst('sh600519'), '2025-01-02', '2025-01-02', NOW)[0]
    const f = qfqAsOf(fakeMarket, inst('sh600519'), '2025-01-02', NOW)
    expect(last[0]).toBe('2025-01-02')
    expect(last[2]).toBe(fixed(raw.close * f, 2))
    expect(last[5]).toBe(fixed(raw.volume / 100, 2))
    expect(last[6]).toEqual({})
    expect(last[7]).toBe(fixed(raw.turnover!, 2))
    expect(last[8]).toBe(fixed(raw.amount / 1e4, 2))
    expect(last[9]).toBe('')
    expect(node.prec).toMatch(/^\d+\.\d{2}$/)
    expect(node.qt.sh600519).toHaveLength(88)
    expect(node.qt.market).toHaveLength(1)
  })

  it('puts a dividend object on the row of an ex-date', async () => {
    const body = await json(url('sh600519,day,2024-06-18,2024-06-20,10,qfq'))
    const rows = body.data.sh600519.qfqday
    expect(rows.map((r: unknown[]) => r[0])).toEqual(['2024-06-18', '2024-06-19', '2024-06-20'])
    expect(rows[0][6]).toEqual({})
    expect(rows[1][6]).toEqual({ nd: '2023', fh_sh: '308.76', djr: '2024-06-18', cqr: '2024-06-19', FHcontent: '10派308.76元' })
    const bonus = await json(url('bj830799,week,2024-05-20,2024-05-31,10,qfq'))
    // A BJ stock's series sits under the plain key, 11 columns (fixture newfqkline-bj920047-…).
    expect(bonus.data.bj830799.week[0][6].FHcontent).toBe('10送3股派5.00元')
    expect(bonus.data.bj830799.week[0].slice(9)).toEqual(['0.00', '0.00'])
  })

  it('uses the plain series key for indexes and unadjusted requests, and keeps start/end/count', async () => {
    const idx = await json(url('sh000001,day,,,2,qfq'))
    expect(idx.data.sh000001.day).toHaveLength(2)
    expect(idx.data.sh000001.day[0][7]).toBe('')
    const raw = await json(url('sh600519,month,2024-01-01,2024-12-31,100,'))
    expect(raw.data.sh600519.month).toHaveLength(12)
    expect(raw.data.sh600519.month[0][0]).toBe('2024-01-31')
  })

  it('answers an empty data object for unknown or foreign codes', async () => {
    expect(await json(url('sh999999,day,,,3,qfq'))).toEqual({ code: 0, msg: '', data: {} })
    expect(await json(url('hk00700,day,,,3,qfq'))).toEqual({ code: 0, msg: '', data: {} })
  })

  it('wraps in a variable when _var is given', async () => {
    const res = await fetchRaw(url('sh600519,day,,,1,qfq') + '&_var=kline_dayqfq')
    expect(await res.text()).toMatch(/^kline_dayqfq=\{"code":0/)
  })
})

describe('tencent hkfqkline / usfqkline', () => {
  it('answers 6-column HK rows in shares', async () => {
    const body = await json('https://web.ifzq.gtimg.cn/appstock/app/hkfqkline/get?param=hk00700,day,,,2,qfq')
    const rows = body.data.hk00700.qfqday
    expect(rows).toHaveLength(2)
    expect(rows[1]).toHaveLength(6)
    const raw = fakeMarket.dailyBars(inst('hk00700'), '2025-01-02', '2025-01-02', NOW)[0]
    expect(Number(rows[1][5])).toBe(raw.volume)
  })

  it('needs the exchange suffix for US listings and keys data by the code as sent', async () => {
    const ok = await json('https://web.ifzq.gtimg.cn/appstock/app/usfqkline/get?param=usAAPL.OQ,week,,,2,qfq')
    expect(ok.data['usAAPL.OQ'].qfqweek).toHaveLength(2)
    expect(ok.data['usAAPL.OQ'].qt['usAAPL.OQ'][2]).toBe('AAPL.OQ')
    const wrong = await json('https://web.ifzq.gtimg.cn/appstock/app/usfqkline/get?param=usAAPL.N,day,,,2,qfq')
    expect(wrong.data).toEqual({})
    const index = await json('https://web.ifzq.gtimg.cn/appstock/app/usfqkline/get?param=usDJI,day,,,2,')
    expect(index.data.usDJI.day).toHaveLength(2)
  })
})

describe('tencent mkline', () => {
  it('answers minute rows: YYYYMMDDHHMM, prices, lots, {}, and no amount', async () => {
    const body = await json('https://web.ifzq.gtimg.cn/appstock/app/kline/mkline?param=sh600519,m5,,3')
    const rows = body.data.sh600519.m5
    expect(rows.map((r: unknown[]) => r[0])).toEqual(['202501021450', '202501021455', '202501021500'])
    expect(rows[2]).toHaveLength(8)
    expect(rows[2][6]).toEqual({})
    const bars = fakeMarket.minuteBars(inst('sh600519'), 5, '2025-01-02', '2025-01-02', NOW)
    expect(rows[2][2]).toBe(fixed(bars.at(-1)!.close, 2))
    expect(rows[2][5]).toBe(fixed(bars.at(-1)!.volume / 100, 2))
    expect(body.data.sh600519.qt.sh600519).toHaveLength(88)
  })

  it('only serves A-shares and only while the minute has ended', async () => {
    const hk = await json('https://web.ifzq.gtimg.cn/appstock/app/kline/mkline?param=hk00700,m5,,3')
    expect(hk.data).toEqual({})
    const midday = Date.parse('2025-01-02T02:02:00Z') // 10:02 Beijing
    const body = await json('https://proxy.finance.qq.com/ifzqgtimg/appstock/app/kline/mkline?param=sh600519,m1,,,2', midday)
    expect(body.data.sh600519.m1.map((r: unknown[]) => r[0])).toEqual(['202501021001', '202501021002'])
  })
})

describe('tencent routing and empty forms', () => {
  it('404s unknown paths', async () => {
    expect((await fetchRaw('https://web.ifzq.gtimg.cn/appstock/app/minute/query?code=sh600519')).status).toBe(404)
    expect((await fetchRaw('https://proxy.finance.qq.com/appstock/app/newfqkline/get?param=sh600519,day,,,1,qfq')).status).toBe(404)
  })

  it('has an empty form per endpoint', async () => {
    const q = tencentEmpty(new URL('https://qt.gtimg.cn/q=sh600519,sz000001'))!
    expect(new TextDecoder('gbk').decode(await q.arrayBuffer())).toBe('v_pv_none_match="1";\nv_pv_none_match="1";\n')
    const k = tencentEmpty(new URL('https://proxy.finance.qq.com/ifzqgtimg/appstock/app/newfqkline/get?param=sh600519,day,,,1,qfq'))!
    expect(await k.json()).toEqual({ code: 0, msg: '', data: {} })
  })
})
