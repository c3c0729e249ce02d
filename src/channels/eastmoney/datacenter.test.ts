import { describe, expect, it } from 'vitest'
import { failureKind, fakeContext } from '../testkit'
import { datacenterUrl, fetchDatacenterRows, readDatacenter } from './datacenter'

// Envelopes as upstreams.md §5.0 shows them.
const ok = (rows: object[], pages = 1, count = rows.length) => JSON.stringify({ version: 'a1b2c3', result: { pages, data: rows, count }, success: true, message: 'ok', code: 0 })
const EMPTY = '{"version":null,"result":null,"success":false,"message":"返回数据为空","code":9201}'

describe('datacenterUrl', () => {
  it('encodes the filter and keeps the rest as sent', () => {
    expect(datacenterUrl({ report: 'RPT_X', filter: `(A="1")(B='2025-06-20')`, sortColumns: 'B', sortTypes: '-1', page: 2 })).toBe(
      'https://datacenter-web.eastmoney.com/api/data/v1/get?reportName=RPT_X&columns=ALL&pageNumber=2&pageSize=500&sortColumns=B&sortTypes=-1&filter=(A%3D%221%22)(B%3D\'2025-06-20\')'
    )
  })
})

describe('readDatacenter', () => {
  it('reads pages, count and rows', () => {
    expect(readDatacenter(ok([{ A: 1 }], 3, 1234))).toEqual({ pages: 3, count: 1234, data: [{ A: 1 }] })
  })

  it('reads code 9201 as no rows', () => {
    expect(readDatacenter(EMPTY)).toBeNull()
  })

  it.each([
    ['a bad report', '{"version":null,"result":null,"success":false,"message":"报表配置不存在","code":9501}'],
    ['busy', '{"version":null,"result":null,"success":false,"message":"系统繁忙","code":9701}'],
    ['no code', '{"result":{"pages":1,"data":[],"count":0}}'],
    ['no result', '{"code":0,"result":null}'],
    ['rows that are not objects', '{"code":0,"result":{"pages":1,"data":[1],"count":1}}'],
    ['HTML', '<html></html>'],
  ])('refuses %s as malformed', (_why, text) => {
    expect(failureKind(() => readDatacenter(text))).toBe('malformed')
  })
})

describe('fetchDatacenterRows', () => {
  const url = (page: number) => `https://datacenter-web.eastmoney.com/api/data/v1/get?reportName=RPT_X&pageNumber=${page}`
  const pageOf = (u: string) => Number(new URL(u).searchParams.get('pageNumber'))

  it('walks every page and concatenates the rows in page order', async () => {
    const fake = fakeContext((u) => ({ body: ok([{ page: pageOf(u) }, { page: pageOf(u) }], 3, 6) }))
    expect((await fetchDatacenterRows(fake.ctx, url)).map((r) => r.page)).toEqual([1, 1, 2, 2, 3, 3])
    expect(fake.calls).toHaveLength(3)
  })

  it('returns [] for 9201 on page 1', async () => {
    expect(await fetchDatacenterRows(fakeContext(() => ({ body: EMPTY })).ctx, url)).toEqual([])
  })

  it.each([
    ['a page gone empty', (p: number) => (p === 2 ? EMPTY : ok([{}], 2, 2))],
    ['a count that moves', (p: number) => ok([{}], 2, p === 2 ? 3 : 2)],
    ['rows that do not add up', (p: number) => ok(p === 2 ? [] : [{}], 2, 2)],
    ['too many pages', () => ok([{}], 1000, 1000)],
  ])('refuses %s as malformed', async (_why, body) => {
    const fake = fakeContext((u) => ({ body: body(pageOf(u)) }))
    await expect(fetchDatacenterRows(fake.ctx, url)).rejects.toMatchObject({ kind: 'malformed', channel: 'eastmoney' })
  })
})
