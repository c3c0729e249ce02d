/**
 * One technical row as /v1/technical and /v1/technical-batch answer it: its schema (the 55
 * columns), an example, and which codes a row is computed for.
 */
import { z } from '@hono/zod-openapi'
import { TECHNICAL_COLUMNS } from '../../domain/indicators/columns'
import type { Instrument, InstrumentKind } from '../../domain/instrument'
import { parseSymbol, SymbolError } from '../../domain/symbols'

/** The kinds a technical row is computed for. */
const SERVED: ReadonlySet<InstrumentKind> = new Set(['stock', 'index', 'etf', 'hk', 'us', 'us-index'])
/** What a refused code is, in the words of the 422. */
const KIND_NAME: Partial<Record<InstrumentKind, string>> = { bond: 'a convertible bond', sector: 'a sector', future: 'a futures contract', forex: 'a forex pair' }
/** What technical serves, in the words of its 422s. */
export const SUPPORTED = 'technical serves A-share stocks (sh, sz, bj), A-share indexes and ETFs, HK stocks (hk00700), US stocks (usAAPL) and US indexes (us.DJI)'

const columnSchema = (kind: 'id' | 'price' | 'value', description: string) => {
  if (kind === 'id') return z.string().openapi({ description })
  const unit = kind === 'price' ? ' Price level, rounded to the instrument\'s price decimals (2 for A-share stocks and indexes, 3 for ETFs and HK).' : ' Rounded to 4 decimals.'
  return z.number().nullable().openapi({ description: `${description}.${unit} null while the history is too short or the value is undefined (e.g. a flat range).` })
}

/** One technical row: also the item `data` of /v1/technical-batch. */
export const TechnicalRowSchema = z
  .object(Object.fromEntries(TECHNICAL_COLUMNS.map(([name, kind, description]) => [name, name === 'name' ? z.string().nullable().openapi({ description }) : columnSchema(kind, description)])))
  .openapi('TechnicalRow', { description: 'The 55 columns of one symbol on `date`, in this order (MyTT/Tongdaxin formulas and default parameters)' })

export const EXAMPLE_ROW = {
  code: 'sh600519', name: '贵州茅台', date: '2026-11-20', closePrice: 1520, ma_MA_5: 1512.4, ma_MA_10: 1503.87, ma_MA_20: 1498.02, ma_MA_30: 1490.55,
  ma_MA_60: 1476.3, ma_MA_120: 1452.18, ma_MA_250: 1431.66, ema_EMA_12: 1508.93, ema_EMA_26: 1497.41, macd_DIF: 11.5212, macd_DEA: 9.8731,
  macd_MACD: 3.2962, kdj_K: 71.2043, kdj_D: 64.5521, kdj_J: 84.5087, rsi_RSI_6: 63.1187, rsi_RSI_12: 58.9034, rsi_RSI_24: 55.2279,
  boll_UPPER: 1531.25, boll_MID: 1498.02, boll_LOWER: 1464.79, wr_WR_10: 18.4211, wr_WR_6: 12.0155, cci_CCI: 96.3314, bias_BIAS_6: 0.4963,
  bias_BIAS_12: 1.0233, bias_BIAS_24: 1.4127, atr_TR: 19.8, atr_ATR: 24.3155, dmi_PDI: 28.1047, dmi_MDI: 17.3398, dmi_ADX: 21.0822,
  dmi_ADXR: 19.7716, trix_TRIX: 0.0719, trix_TRMA: 0.0533, obv_OBV: 48211900, vr_VR: 131.0447, psy_PSY: 58.3333, psy_PSYMA: 54.1667,
  roc_ROC: 2.7027, roc_MAROC: 1.9934, mtm_MTM: 40, mtm_MTMMA: 29.5167, dma_DIF: 21.7208, dma_DIFMA: 18.4416, bbi_BBI: 1505.96,
  vol_MA_5: 2087360, vol_MA_10: 2011250, brar_AR: 108.6621, brar_BR: 117.3052, mfi_MFI: 61.8735,
}

/** The instrument `code` names when a technical row can be computed for it, else why not. */
export function technicalInstrument(code: string): Instrument | { error: string } {
  let inst: Instrument
  try {
    inst = parseSymbol(code)
  } catch (e) {
    if (!(e instanceof SymbolError)) throw e
    return { error: `${e.message}. ${SUPPORTED}` }
  }
  if (!SERVED.has(inst.kind)) return { error: `${inst.code} is ${KIND_NAME[inst.kind] ?? inst.kind}; ${SUPPORTED}` }
  return inst
}
