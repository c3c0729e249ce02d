import { describe, expect, it } from 'vitest'
import { market } from '../market'
import { dayFlow } from '../market/flow'
import { handleEastmoney } from './eastmoney'

const NOW = Date.parse('2026-11-20T14:00:00+08:00')
const AFTER_CLOSE = Date.parse('2026-11-20T18:00:00+08:00')

async function get(url: string, now = NOW): Promise<any> {
  const u = new URL(url)
  const res = await handleEastmoney(u, new Request(u), market, now)
  expect(res.status).toBe(200)
  return res.json()
}

const DAYKLINE = 'https://push2his.eastmoney.com/api/qt/stock/fflow/daykline/get?lmt=0&klt=101&fields1=f1,f2,f3,f7&fields2=f51,f52,f53,f54,f55,f56,f57,f58,f59,f60,f61,f62,f63,f64,f65'
const FLOW_FIELDS = 'f2,f6,f12,f13,f62,f64,f65,f66,f69,f70,f71,f72,f75,f76,f77,f78,f81,f82,f83,f84,f87,f184'
const report = (name: string, filter: string) =>
  `https://datacenter-web.eastmoney.com/api/data/v1/get?reportName=${name}&columns=ALL&pageNumber=1&pageSize=500&sortColumns=TRADE_DATE&sortTypes=-1&filter=${encodeURIComponent(filter)}`

describe('push2his fflow/daykline', () => {
  it('answers 15 columns a session, oldest first, ending with today so far', async () => {
    const body = await get(`${DAYKLINE}&secid=1.600519`)
    expect(body.data).toMatchObject({ code: '600519', market: 1, name: '贵州茅台', tradePeriods: null })
    const rows: string[] = body.data.klines
    expect(rows.length).toBe(120)
    for (const r of rows) expect(r.split(',')).toHaveLength(15)
    const last = rows.at(-1)!.split(',')
    expect(last[0]).toBe('2026-11-20')
    // main = super-large + large
    expect(Number(last[1])).toBeCloseTo(Number(last[5]) + Number(last[4]), 0)
    const bar = market.dailyBars(market.byCode('sh600519')!, '2026-11-20', '2026-11-20', NOW)[0]
    const f = dayFlow(market.byCode('sh600519')!, bar)
    expect(Number(last[5])).toBeCloseTo(f.super.inflow - f.super.outflow, 0)
    expect(last[11]).toBe(bar.close.toFixed(2))
  })

  it('answers data:null for what is not an A-share stock, and lmt keeps the newest rows', async () => {
    expect((await get(`${DAYKLINE}&secid=116.00700`)).data).toBeNull()
    expect((await get(`${DAYKLINE}&secid=1.000001`)).data).toBeNull()
    expect((await get(`${DAYKLINE.replace('lmt=0', 'lmt=5')}&secid=1.600519`)).data.klines).toHaveLength(5)
  })
})

describe('list-namespace flow fields', () => {
  it('split today\'s amount over the four classes on ulist.np/get', async () => {
    const body = await get(`https://push2.eastmoney.com/api/qt/ulist.np/get?fltt=2&invt=2&fields=${FLOW_FIELDS}&secids=1.600519`)
    const r = body.data.diff[0]
    const total = r.f64 + r.f65 + r.f70 + r.f71 + r.f76 + r.f77 + r.f82 + r.f83
    expect(total).toBeCloseTo(r.f6, 1)
    expect(r.f62).toBeCloseTo(r.f66 + r.f72, 1)
    expect(r.f184).toBeCloseTo((r.f62 / r.f6) * 100, 1)
  })

  it('are absent for an index', async () => {
    const body = await get(`https://push2.eastmoney.com/api/qt/ulist.np/get?fltt=2&invt=2&fields=${FLOW_FIELDS}&secids=1.000001`)
    expect(body.data.diff[0].f62).toBe('-')
  })
})

describe('datacenter trading reports', () => {
  it('block trades: a session\'s list appears at 15:30, with the bar\'s close and premium', async () => {
    const filter = "(SECURITY_TYPE_WEB=1)(TRADE_DATE>='2026-11-20')(TRADE_DATE<='2026-11-20')"
    expect((await get(report('RPT_DATA_BLOCKTRADE', filter))).code).toBe(9201)
    const body = await get(report('RPT_DATA_BLOCKTRADE', filter), AFTER_CLOSE)
    expect(body.result.count).toBeGreaterThan(50)
    for (const row of body.result.data.slice(0, 20)) {
      expect(row.TRADE_DATE).toBe('2026-11-20 00:00:00')
      expect(row.PREMIUM_RATIO).toBeCloseTo(row.DEAL_PRICE / row.CLOSE_PRICE - 1, 9)
      expect(row.DEAL_AMT).toBeCloseTo(row.DEAL_PRICE * row.DEAL_VOLUME, 1)
    }
  })

  it('block trades: a whole-market range longer than a month has no rows', async () => {
    const filter = "(SECURITY_TYPE_WEB=1)(TRADE_DATE>='2026-01-01')(TRADE_DATE<='2026-11-20')"
    expect((await get(report('RPT_DATA_BLOCKTRADE', filter), AFTER_CLOSE)).code).toBe(9201)
  })

  it('margin: yesterday\'s figures are the latest, per stock', async () => {
    const body = await get(report('RPTA_WEB_RZRQ_GGMX', '(SCODE="600519")').replace('sortColumns=TRADE_DATE', 'sortColumns=DATE'), AFTER_CLOSE)
    const [latest] = body.result.data
    expect(latest).toMatchObject({ DATE: '2026-11-19 00:00:00', SCODE: '600519', SECNAME: '贵州茅台' })
    expect(latest.RZRQYE).toBeCloseTo(latest.RZYE + latest.RQYE, 1)
    expect(latest.RZJME).toBeCloseTo(latest.RZMRE - latest.RZCHE, 1)
  })

  it('the board and its seats name the same days', async () => {
    const stock = market.instruments().find((i) => i.kind === 'stock' && i.listDate < '2025-01-01' && i.code.startsWith('sz3'))!
    const filter = `(SECURITY_CODE="${stock.symbol}")(TRADE_DATE>='2025-11-20')`
    const list = await get(report('RPT_DAILYBILLBOARD_DETAILSNEW', filter), AFTER_CLOSE)
    const buys = await get(report('RPT_BILLBOARD_DAILYDETAILSBUY', filter), AFTER_CLOSE)
    const days = new Set((list.result?.data ?? []).map((r: any) => r.TRADE_DATE))
    const seatDays = new Set((buys.result?.data ?? []).map((r: any) => r.TRADE_DATE))
    expect([...seatDays].sort()).toEqual([...days].sort())
    for (const r of list.result?.data ?? []) expect(r.BILLBOARD_NET_AMT).toBeCloseTo(r.BILLBOARD_BUY_AMT - r.BILLBOARD_SELL_AMT, 1)
  })
})
