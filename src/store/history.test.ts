import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { appendBars, barAt, checkHistory, dateNum, emptyHistory, indexOnOrAfter, mergeActions, numDate, readHistory, writeHistory } from './history'
import { historyKey } from './keys'

const bar = (date: string, close: number) => ({ date, open: close - 0.1, high: close + 0.2, low: close - 0.3, close, volume: 1200, amount: close * 1200 })

describe('history codec', () => {
  it('converts dates to and from YYYYMMDD numbers', () => {
    expect(dateNum('2016-08-08')).toBe(20160808)
    expect(numDate(20261120)).toBe('2026-11-20')
  })

  it('appends only bars newer than the last one, so a repeat changes nothing', () => {
    const h = emptyHistory('sz000001')
    expect(appendBars(h, [bar('2026-11-18', 10), bar('2026-11-19', 10.5)])).toBe(2)
    expect(appendBars(h, [bar('2026-11-19', 99), bar('2026-11-20', 11)])).toBe(1)
    expect(appendBars(h, [bar('2026-11-20', 11)])).toBe(0)
    expect(h.last).toBe('2026-11-20')
    expect(h.c).toEqual([10, 10.5, 11])
    expect(barAt(h, 1)).toEqual({ ...bar('2026-11-19', 10.5), turnover: null })
  })

  it('merges actions once per ex-date, ascending', () => {
    const h = emptyHistory('sz000001')
    expect(mergeActions(h, [{ exDate: '2025-06-01', cash: 0.3, bonus: 0 }])).toBe(1)
    expect(mergeActions(h, [{ exDate: '2024-06-01', cash: 0.2, bonus: 0.5 }, { exDate: '2025-06-01', cash: 0.3, bonus: 0 }])).toBe(1)
    expect(h.act).toEqual([['2024-06-01', 0.2, 0.5], ['2025-06-01', 0.3, 0]])
  })

  it('finds the first bar on or after a date', () => {
    const h = emptyHistory('sz000001')
    appendBars(h, [bar('2026-11-16', 1), bar('2026-11-18', 2), bar('2026-11-20', 3)])
    expect(indexOnOrAfter(h, '2026-11-01')).toBe(0)
    expect(indexOnOrAfter(h, '2026-11-17')).toBe(1)
    expect(indexOnOrAfter(h, '2026-11-18')).toBe(1)
    expect(indexOnOrAfter(h, '2026-11-21')).toBe(3)
  })

  it('refuses a damaged document rather than serving it', () => {
    const h = emptyHistory('sz000001')
    appendBars(h, [bar('2026-11-16', 1)])
    expect(() => checkHistory({ ...h, v: 2 })).toThrow(/version/)
    expect(() => checkHistory({ ...h, c: [] })).toThrow(/column c/)
    expect(() => checkHistory({ ...h, last: '2026-11-17' })).toThrow(/last/)
    expect(checkHistory(JSON.parse(JSON.stringify(h)))).toEqual(h)
  })

  it('keeps each day\'s turnover rate, null where the bar had none', () => {
    const h = emptyHistory('sz000001')
    appendBars(h, [{ ...bar('2026-11-18', 10), turnover: 0.53 }, bar('2026-11-19', 10.5), { ...bar('2026-11-20', 11), turnover: null }])
    expect(h.tr).toEqual([0.53, null, null])
    expect(barAt(h, 0).turnover).toBe(0.53)
    expect(() => checkHistory({ ...h, tr: [0.53] })).toThrow(/column tr/)
  })

  it('reads a blob from before the turnover column as nulls, and keeps the column from then on', async () => {
    const h = emptyHistory('sz000002')
    appendBars(h, [bar('2026-11-18', 10), bar('2026-11-19', 10.5)])
    const { tr: _, ...old } = h
    await env.STORE.put(historyKey('sz000002'), JSON.stringify(old))
    const read = (await readHistory(env.STORE, 'sz000002'))!
    expect(read.tr).toEqual([null, null])
    appendBars(read, [{ ...bar('2026-11-20', 11), turnover: 1.25 }])
    await writeHistory(env.STORE, read)
    expect((await readHistory(env.STORE, 'sz000002'))!.tr).toEqual([null, null, 1.25])
  })

  it('round-trips through R2 as compact columns with the last date in metadata', async () => {
    const h = emptyHistory('sh600519')
    appendBars(h, [bar('2026-11-19', 1500.5), bar('2026-11-20', 1510)])
    mergeActions(h, [{ exDate: '2026-07-22', cash: 53.75, bonus: 0 }])
    await writeHistory(env.STORE, h)
    expect(await readHistory(env.STORE, 'sh600519')).toEqual(h)
    expect(await readHistory(env.STORE, 'sh600000')).toBeUndefined()
    const obj = await env.STORE.head(historyKey('sh600519'))
    expect(obj?.customMetadata).toEqual({ last: '2026-11-20', bars: '2' })
    const text = await (await env.STORE.get(historyKey('sh600519')))!.text()
    expect(text).toContain('"t":[20261119,20261120]')
    expect(text).toContain('"act":[["2026-07-22",53.75,0]]')
  })
})
