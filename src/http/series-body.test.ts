import { describe, expect, it } from 'vitest'
import type { Bar } from '../domain/bar'
import type { Instrument } from '../domain/instrument'
import { toBarRow } from './format'
import { seriesBody } from './series-body'

const bar = (date: string, close: number): Bar => ({ date, open: close, high: close + 0.5, low: close - 0.5, close, volume: 1000.4, amount: 12345.678, turnover: null })
const stock = { code: 'sh600519', prefix: 'sh', symbol: '600519', kind: 'stock' } as Instrument
const etf = { code: 'sh510300', prefix: 'sh', symbol: '510300', kind: 'etf' } as Instrument

describe('seriesBody', () => {
  it('writes the same rows for bar objects it has written before, newest first, in each kind\'s decimals', () => {
    const bars = [bar('2026-11-19', 1500.125), bar('2026-11-20', 1512.5)]
    const once = seriesBody([{ instrument: stock, ok: true, bars, channel: 'tencent' }], 'emulator:')
    const again = seriesBody([{ instrument: stock, ok: true, bars, channel: 'tencent' }], 'emulator:')
    expect(again.dataText).toBe(once.dataText)
    expect(once.dataText).toBe(JSON.stringify([toBarRow(bars[1], 'stock'), toBarRow(bars[0], 'stock')]))
    expect(once.rows).toBe(2)
    // The same objects under another kind are written for that kind (3 decimals for an ETF).
    const asEtf = seriesBody([{ instrument: etf, ok: true, bars, channel: 'tencent' }], 'emulator:')
    expect(JSON.parse(asEtf.dataText)[0].last).toBe('1512.500')
    expect(once.body).toMatchObject({ ok: true, source: 'emulator:tencent', data: null })
  })

  it('writes several symbols as JSON.stringify writes their map by code: failed ones empty, a repeated code once', () => {
    const bars = [bar('2026-11-20', 10.5)]
    const failed = { instrument: etf, ok: false as const, attempts: [] }
    const { dataText, rows } = seriesBody([{ instrument: stock, ok: true, bars, channel: 'tencent' }, failed, { instrument: stock, ok: true, bars: [], channel: 'sina' }], 'emulator:')
    expect(dataText).toBe(JSON.stringify(Object.fromEntries([[stock.code, [toBarRow(bars[0], 'stock')]], [etf.code, []], [stock.code, []]])))
    expect(rows).toBe(0)
    const both = seriesBody([{ instrument: stock, ok: true, bars, channel: 'tencent' }, failed], 'emulator:')
    expect(both.rows).toBe(1)
    expect(both.body).toMatchObject({ ok: true, source: 'emulator:tencent' })
  })
})
