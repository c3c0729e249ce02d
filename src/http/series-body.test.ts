import { describe, expect, it } from 'vitest'
import type { Bar } from '../domain/bar'
import type { Instrument } from '../domain/instrument'
import { toBarRow } from './format'
import { seriesBody } from './series-body'

const bar = (date: string, close: number): Bar => ({ date, open: close, high: close + 0.5, low: close - 0.5, close, volume: 1000.4, amount: 12345.678, turnover: null })
const stock = { code: 'sh600519', prefix: 'sh', symbol: '600519', kind: 'stock' } as Instrument
const etf = { code: 'sh510300', prefix: 'sh', symbol: '510300', kind: 'etf' } as Instrument

describe('seriesBody', () => {
  it('answers the same rows for bar objects it has formatted before, newest first, in each kind\'s decimals', () => {
    const bars = [bar('2026-11-19', 1500.125), bar('2026-11-20', 1512.5)]
    const once = seriesBody([{ instrument: stock, ok: true, bars, channel: 'tencent' }], 'emulator:')
    const again = seriesBody([{ instrument: stock, ok: true, bars, channel: 'tencent' }], 'emulator:')
    expect(again.data).toEqual(once.data)
    expect(once.data).toEqual([toBarRow(bars[1], 'stock'), toBarRow(bars[0], 'stock')])
    // The same objects under another kind are formatted for that kind (3 decimals for an ETF).
    const asEtf = seriesBody([{ instrument: etf, ok: true, bars, channel: 'tencent' }], 'emulator:')
    expect((asEtf.data as { last: string }[])[0].last).toBe('1512.500')
    expect(once.source).toBe('emulator:tencent')
  })
})
