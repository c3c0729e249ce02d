import { atr } from './atr'
import type { DailyBars } from './bars'
import { bbi } from './bbi'
import { bias } from './bias'
import { boll } from './boll'
import { brar } from './brar'
import { cci } from './cci'
import { TECHNICAL_COLUMNS, type NumericColumn, type TechnicalRow } from './columns'
import { dma } from './dma'
import { dmi } from './dmi'
import { kdj } from './kdj'
import { macd } from './macd'
import { mfi } from './mfi'
import { mtm } from './mtm'
import { obv } from './obv'
import { psy } from './psy'
import { roc } from './roc'
import { rsi } from './rsi'
import { ema, ma, type Series } from './series'
import { trix } from './trix'
import { vr } from './vr'
import { wr } from './wr'

/** Who the row is about. */
export interface RowIdentity {
  code: string
  name: string | null
  /** Decimals the instrument's price is quoted in (2 for A-share stocks, 3 for ETFs and HK). */
  priceDecimals: number
}

/** Every numeric column as a whole series over the bars. */
export function technicalSeries(b: DailyBars): Record<NumericColumn, Series> {
  const c = b.close
  const m = macd(c)
  const k = kdj(b)
  const bb = boll(c)
  const a = atr(b)
  const d = dmi(b)
  const t = trix(c)
  const p = psy(c)
  const r = roc(c)
  const mt = mtm(c)
  const dm = dma(c)
  const br = brar(b)
  return {
    closePrice: c,
    ma_MA_5: ma(c, 5), ma_MA_10: ma(c, 10), ma_MA_20: ma(c, 20), ma_MA_30: ma(c, 30), ma_MA_60: ma(c, 60), ma_MA_120: ma(c, 120), ma_MA_250: ma(c, 250),
    ema_EMA_12: ema(c, 12), ema_EMA_26: ema(c, 26),
    macd_DIF: m.dif, macd_DEA: m.dea, macd_MACD: m.macd,
    kdj_K: k.k, kdj_D: k.d, kdj_J: k.j,
    rsi_RSI_6: rsi(c, 6), rsi_RSI_12: rsi(c, 12), rsi_RSI_24: rsi(c, 24),
    boll_UPPER: bb.upper, boll_MID: bb.mid, boll_LOWER: bb.lower,
    wr_WR_10: wr(b, 10), wr_WR_6: wr(b, 6),
    cci_CCI: cci(b),
    bias_BIAS_6: bias(c, 6), bias_BIAS_12: bias(c, 12), bias_BIAS_24: bias(c, 24),
    atr_TR: a.tr, atr_ATR: a.atr,
    dmi_PDI: d.pdi, dmi_MDI: d.mdi, dmi_ADX: d.adx, dmi_ADXR: d.adxr,
    trix_TRIX: t.trix, trix_TRMA: t.trma,
    obv_OBV: obv(c, b.volume),
    vr_VR: vr(c, b.volume),
    psy_PSY: p.psy, psy_PSYMA: p.psyma,
    roc_ROC: r.roc, roc_MAROC: r.maroc,
    mtm_MTM: mt.mtm, mtm_MTMMA: mt.mtmma,
    dma_DIF: dm.dif, dma_DIFMA: dm.difma,
    bbi_BBI: bbi(c),
    vol_MA_5: ma(b.volume, 5), vol_MA_10: ma(b.volume, 10),
    brar_AR: br.ar, brar_BR: br.br,
    mfi_MFI: mfi(b),
  }
}

/** 10 ** places for the places rows use, without a pow call per value (the same doubles). */
const SCALE = [1, 10, 100, 1000, 10000]

/** Half-up rounding to `places` decimals; the epsilon absorbs binary noise such as 1.005. */
export function roundTo(x: number, places: number): number {
  const y = roundedUnits(x, places) / (SCALE[places] ?? 10 ** places)
  return x < 0 ? (y === 0 ? 0 : -y) : y
}

/**
 * |x| rounded as {@link roundTo} rounds it, counted in units of 10^−places (an integer): what a
 * writer of the decimal digits needs (src/features/technical/item-bytes.ts).
 */
export const roundedUnits = (x: number, places: number): number => Math.round(Math.abs(x) * (SCALE[places] ?? 10 ** places) + 1e-7)

/**
 * The 55 columns of /v1/technical (./columns.ts) for the last bar, computed over the whole given history (so the
 * recursive averages have converged): numbers rounded to 4 decimals, price levels to the
 * instrument's decimals, null where the history is too short or a value is undefined (a flat range,
 * no movement). The bars must be the qfq daily history up to and including the row's date; nothing
 * later. Undefined when there are no bars.
 */
export function technicalRow(b: DailyBars, id: RowIdentity): TechnicalRow | undefined {
  if (b.close.length === 0) return undefined
  return technicalRowAt(b, technicalSeries(b), b.close.length - 1, id)
}

/**
 * The row of bar `i` from series computed once over `b` (see {@link technicalSeries}). Every
 * indicator at bar i reads only bars 0..i, so this equals `technicalRow` of the bars through i:
 * a backfill computes the series once per stretch of days that share one forward adjustment (the
 * days between two ex-dates) and reads each day's row from it.
 */
export function technicalRowAt(b: DailyBars, series: Record<NumericColumn, Series>, i: number, id: RowIdentity): TechnicalRow {
  const row: Record<string, string | number | null> = { code: id.code, name: id.name, date: b.dates[i] }
  for (const [name, kind] of TECHNICAL_COLUMNS) {
    if (kind === 'id') continue
    const v = series[name][i]
    row[name] = Number.isFinite(v) ? roundTo(v, kind === 'price' ? id.priceDecimals : 4) : null
  }
  return row as TechnicalRow
}
