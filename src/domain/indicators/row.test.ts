import { describe, expect, it } from 'vitest'
import { TECHNICAL_COLUMNS } from './columns'
import reference from '../../../test/fixtures/indicators/mytt-reference.json'
import { roundTo, technicalRow, technicalRowAt, technicalSeries } from './row'
import { bandBars, barsOf, flatBars, line } from './testing'
import type { DailyBars } from './bars'

/** The column order /v1/technical promises, written out. */
const COLUMN_ORDER = `code, name, date, closePrice, ma_MA_5, ma_MA_10, ma_MA_20, ma_MA_30, ma_MA_60,
ma_MA_120, ma_MA_250, ema_EMA_12, ema_EMA_26, macd_DIF, macd_DEA, macd_MACD, kdj_K, kdj_D, kdj_J,
rsi_RSI_6, rsi_RSI_12, rsi_RSI_24, boll_UPPER, boll_MID, boll_LOWER, wr_WR_10, wr_WR_6, cci_CCI,
bias_BIAS_6, bias_BIAS_12, bias_BIAS_24, atr_TR, atr_ATR, dmi_PDI, dmi_MDI, dmi_ADX, dmi_ADXR,
trix_TRIX, trix_TRMA, obv_OBV, vr_VR, psy_PSY, psy_PSYMA, roc_ROC, roc_MAROC, mtm_MTM, mtm_MTMMA,
dma_DIF, dma_DIFMA, bbi_BBI, vol_MA_5, vol_MA_10, brar_AR, brar_BR, mfi_MFI`.split(/,\s*/)

const id = { code: 'sh600000', name: 'Test', priceDecimals: 2 }

describe('technicalRow', () => {
  it('has the 55 columns in that order', () => {
    expect(COLUMN_ORDER).toHaveLength(55)
    expect(TECHNICAL_COLUMNS.map((c) => c[0])).toEqual(COLUMN_ORDER)
    const row = technicalRow(bandBars(line(300, 10, 0.01), 0.05), id)!
    expect(Object.keys(row)).toEqual(COLUMN_ORDER)
    expect(row).toMatchObject({ code: 'sh600000', name: 'Test', date: '2026-10-27' }) // 2026-01-01 + 299 days
  })

  it('a line c = 10 + 0.01 i with a ±0.05 band: every column from its formula', () => {
    const row = technicalRow(bandBars(line(300, 10, 0.01), 0.05), id)!
    const c = 10 + 0.01 * 299 // 12.99
    expect(row.closePrice).toBe(12.99)
    expect(row.ma_MA_5).toBe(roundTo(c - 0.02, 2)) // a line's mean is its middle: lag (n − 1)/2 steps
    expect(row.ma_MA_250).toBe(roundTo(c - 0.01 * 124.5, 2))
    expect(row.macd_DIF).toBeCloseTo(0.07, 4) // (12.5 − 5.5) · 0.01
    expect(row.macd_MACD).toBeCloseTo(0, 4)
    expect(row.rsi_RSI_6).toBe(100)
    expect(row.wr_WR_10).toBe(roundTo((0.05 / (0.09 + 0.1)) * 100, 4)) // HHV = c + 0.05, LLV = c − 0.09 − 0.05
    expect(row.psy_PSY).toBe(100)
    expect(row.mtm_MTM).toBe(0.12)
    expect(row.dma_DIF).toBe(0.2) // (24.5 − 4.5) · 0.01
    expect(row.vol_MA_5).toBe(1000)
    expect(row.obv_OBV).toBe(299_000) // every bar but the first is an up day, 1,000 shares each
    expect(row.dmi_MDI).toBe(0)
    expect(row.mfi_MFI).toBe(100)
  })

  it('is null where the history is too short, a value as soon as it is long enough', () => {
    const row = technicalRow(bandBars(line(100, 10, 0.01)), id)!
    expect(row.ma_MA_60).not.toBeNull()
    expect(row.dma_DIFMA).not.toBeNull() // needs 59 bars
    expect(row.ma_MA_120).toBeNull()
    expect(row.ma_MA_250).toBeNull()
    const one = technicalRow(bandBars([10]), id)!
    expect(one).toMatchObject({ closePrice: 10, ema_EMA_12: 10, macd_DIF: 0, obv_OBV: 0, ma_MA_5: null, atr_TR: null, kdj_K: null, rsi_RSI_6: null, brar_AR: null })
  })

  it('a price that never moved: RSI, KDJ, WR, CCI undefined (null), not invented', () => {
    const row = technicalRow(flatBars(Array(300).fill(5)), id)!
    expect(row).toMatchObject({ rsi_RSI_6: null, kdj_K: null, kdj_J: null, wr_WR_10: null, cci_CCI: null, mfi_MFI: null })
    expect(row).toMatchObject({ ma_MA_250: 5, boll_UPPER: 5, bias_BIAS_6: 0, psy_PSY: 0, obv_OBV: 0, atr_ATR: 0 })
    expect(row.vr_VR).toBe(0) // flat days count wholly as down: 0 up-volume over all the volume
  })

  it('rounds price levels to the instrument decimals and the rest to 4', () => {
    const b = barsOf(line(30, 1.2344, 0.00011).map((c) => [c, c, c, c] as const))
    const s = technicalSeries(b)
    const row = technicalRow(b, { ...id, priceDecimals: 3 })!
    expect(row.closePrice).toBe(roundTo(s.closePrice[29], 3))
    expect(row.ma_MA_5).toBe(roundTo(s.ma_MA_5[29], 3))
    expect(row.bias_BIAS_6).toBe(roundTo(s.bias_BIAS_6[29], 4))
    for (const [name, kind] of TECHNICAL_COLUMNS) {
      if (kind === 'id') continue
      const v = row[name]
      if (v !== null) expect(Math.abs(v - s[name][29]), name).toBeLessThanOrEqual(kind === 'price' ? 0.0005 : 0.00005)
    }
  })

  it('rounds half away from zero, without binary noise', () => {
    expect(roundTo(1.005, 2)).toBe(1.01)
    expect(roundTo(-0.00005, 4)).toBe(-0.0001)
    expect(roundTo(-0.00001, 4)).toBe(0)
  })

  it('point in time: the row of a day is the same whether or not later bars exist', () => {
    const r = reference.bars
    const upTo = (n: number): DailyBars => ({
      dates: r.close.slice(0, n).map((_, i) => String(i)),
      open: Float64Array.from(r.open.slice(0, n)), high: Float64Array.from(r.high.slice(0, n)), low: Float64Array.from(r.low.slice(0, n)),
      close: Float64Array.from(r.close.slice(0, n)), volume: Float64Array.from(r.volume.slice(0, n)),
    })
    const all = upTo(r.close.length)
    const series = technicalSeries(all)
    for (const day of [30, 250, 399, 598]) expect(technicalRowAt(all, series, day, id), `day ${day}`).toEqual(technicalRow(upTo(day + 1), id))
  })

  it('has no row without bars', () => {
    expect(technicalRow(barsOf([]), id)).toBeUndefined()
  })
})
