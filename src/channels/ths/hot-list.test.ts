import { describe, expect, it } from 'vitest'
import { fakeContext, failureKind } from '../testkit'
import { fetchThsHotList, parseThsHotList, THS_HOT_URL } from './hot-list'

// Hand-written rows in the shape of the dq.10jqka.com.cn hot list (no captured answer was found:
// test/fixtures/ths/SOURCE.md; public projects' tests hold hand-written rows too): with THS market
// ids and hot_rank_chg, and without them (rate as a string, rise_and_fall a number).
const WITH_CHANGE = JSON.stringify({
  status_code: 0,
  data: {
    stock_list: [
      { market: 33, code: '000001', rate: '1234567', rise_and_fall: 2.35, name: '平安银行', hot_rank_chg: 3, order: 1, tag: { popularity_tag: '持续上榜', concept_tag: ['银行'] } },
      { market: 17, code: '600519', rate: '998000.0', rise_and_fall: -0.5, name: '贵州茅台', hot_rank_chg: -1, order: 2, tag: {} },
    ],
  },
})
const WITHOUT_CHANGE = JSON.stringify({
  status_code: 0,
  data: {
    stock_list: [
      { market: 17, code: '600487', rate: '478995.0', rise_and_fall: 10.0087, name: '亨通光电', order: 1 },
      { code: '000636', rate: '1059860.0', rise_and_fall: 3.21, name: '风华高科', order: 2, tag: { concept_tag: ['MLCC概念', '被动元件'], popularity_tag: '2天1板' } },
    ],
  },
})

describe('parseThsHotList', () => {
  it('reads rank, our code and the rank change', () => {
    expect(parseThsHotList(WITH_CHANGE).map((e) => [e.rank, e.instrument.code, e.rankChange])).toEqual([
      [1, 'sz000001', 3],
      [2, 'sh600519', -1],
    ])
  })

  it('gives null, never a guess, when THS sends no rank change; places a code without market id by its stock range', () => {
    expect(parseThsHotList(WITHOUT_CHANGE).map((e) => [e.rank, e.instrument.code, e.rankChange])).toEqual([
      [1, 'sh600487', null],
      [2, 'sz000636', null],
    ])
  })

  it('places a market-151 row on the Beijing exchange (old 43xxxx and new 920xxx codes)', () => {
    const body = JSON.stringify({ status_code: 0, data: { stock_list: [{ market: 151, code: '430047', name: '诺思兰德', order: 1 }, { market: 151, code: '920083', order: 2 }] } })
    expect(parseThsHotList(body).map((e) => e.instrument.code)).toEqual(['bj430047', 'bj920083'])
  })

  it('leaves out codes outside our ranges and keeps the others’ ranks', () => {
    const body = JSON.stringify({ status_code: 0, data: { stock_list: [{ code: '900901', order: 1 }, { code: '600519', market: 17, order: 2 }] } })
    expect(parseThsHotList(body).map((e) => [e.rank, e.instrument.code])).toEqual([[2, 'sh600519']])
  })

  it.each([
    ['not JSON', '<html>'],
    ['an error status', JSON.stringify({ status_code: -1, status_msg: 'busy' })],
    ['no stock_list', JSON.stringify({ status_code: 0, data: {} })],
    ['ranks out of order', JSON.stringify({ data: { stock_list: [{ code: '600519', order: 2 }, { code: '000001', order: 1 }] } })],
    ['a code twice', JSON.stringify({ data: { stock_list: [{ code: '600519', order: 1 }, { code: '600519', order: 2 }] } })],
    ['a bad code', JSON.stringify({ data: { stock_list: [{ code: '60051', order: 1 }] } })],
    ['a bad rank change', JSON.stringify({ data: { stock_list: [{ code: '600519', order: 1, hot_rank_chg: 'up' }] } })],
  ])('rejects %s as malformed', (_, text) => {
    expect(failureKind(() => parseThsHotList(text))).toBe('malformed')
  })
})

describe('fetchThsHotList', () => {
  it('GETs the list and calls an empty one empty', async () => {
    const { ctx, calls } = fakeContext(() => ({ body: WITH_CHANGE }))
    expect(await fetchThsHotList(ctx)).toHaveLength(2)
    expect(calls[0].url).toBe(THS_HOT_URL)
    const none = fakeContext(() => ({ body: JSON.stringify({ status_code: 0, data: { stock_list: [] } }) }))
    await expect(fetchThsHotList(none.ctx)).rejects.toMatchObject({ kind: 'empty' })
  })
})
