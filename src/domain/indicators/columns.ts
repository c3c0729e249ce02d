/**
 * The 55 columns of a technical row, in order, with what each means. One table that the row
 * builder and the response schema both read. `price` columns are price levels, rounded to the
 * instrument's price decimals; `value` columns to 4 decimals.
 */
export const TECHNICAL_COLUMNS = [
  ['code', 'id', 'Code with its market prefix, e.g. `sh600519`'],
  ['name', 'id', 'Short name; null when the upstream gave none'],
  ['date', 'id', 'Trading day of the last bar, `YYYY-MM-DD` (today during a session)'],
  ['closePrice', 'price', 'Close of `date` (during a session: the current price), forward-adjusted = the real traded price'],
  ['ma_MA_5', 'price', 'MA(C, 5): mean of the last 5 closes'],
  ['ma_MA_10', 'price', 'MA(C, 10)'],
  ['ma_MA_20', 'price', 'MA(C, 20)'],
  ['ma_MA_30', 'price', 'MA(C, 30)'],
  ['ma_MA_60', 'price', 'MA(C, 60)'],
  ['ma_MA_120', 'price', 'MA(C, 120)'],
  ['ma_MA_250', 'price', 'MA(C, 250); null with fewer than 250 bars'],
  ['ema_EMA_12', 'price', 'EMA(C, 12), α = 2/13, seeded with the first close'],
  ['ema_EMA_26', 'price', 'EMA(C, 26), α = 2/27'],
  ['macd_DIF', 'value', 'MACD(12, 26, 9) DIF = EMA12 − EMA26, price units'],
  ['macd_DEA', 'value', 'MACD DEA = EMA(DIF, 9)'],
  ['macd_MACD', 'value', 'MACD bar = 2 × (DIF − DEA)'],
  ['kdj_K', 'value', 'KDJ(9, 3, 3) K = SMA(RSV, 3, 1), RSV = (C − LLV(L, 9)) / (HHV(H, 9) − LLV(L, 9)) × 100; 0..100'],
  ['kdj_D', 'value', 'KDJ D = SMA(K, 3, 1); 0..100'],
  ['kdj_J', 'value', 'KDJ J = 3K − 2D (may leave 0..100)'],
  ['rsi_RSI_6', 'value', 'RSI(6) = SMA(max(ΔC, 0), 6, 1) / SMA(|ΔC|, 6, 1) × 100; 0..100'],
  ['rsi_RSI_12', 'value', 'RSI(12); 0..100'],
  ['rsi_RSI_24', 'value', 'RSI(24); 0..100'],
  ['boll_UPPER', 'price', 'BOLL(20, 2) upper band = MID + 2 × population standard deviation of 20 closes'],
  ['boll_MID', 'price', 'BOLL middle band = MA(C, 20)'],
  ['boll_LOWER', 'price', 'BOLL lower band = MID − 2 × standard deviation'],
  ['wr_WR_10', 'value', 'WR(10) = (HHV(H, 10) − C) / (HHV(H, 10) − LLV(L, 10)) × 100; 0 at the high, 100 at the low'],
  ['wr_WR_6', 'value', 'WR(6), same scale'],
  ['cci_CCI', 'value', 'CCI(14) = (TP − MA(TP, 14)) / (0.015 × mean absolute deviation of TP), TP = (H + L + C) / 3'],
  ['bias_BIAS_6', 'value', 'BIAS(6) = (C − MA6) / MA6 × 100, percent'],
  ['bias_BIAS_12', 'value', 'BIAS(12), percent'],
  ['bias_BIAS_24', 'value', 'BIAS(24), percent'],
  ['atr_TR', 'value', 'True range of the last bar = max(H − L, |C′ − H|, |C′ − L|), price units'],
  ['atr_ATR', 'value', 'ATR(20) = simple 20-bar mean of TR, price units'],
  ['dmi_PDI', 'value', 'DMI(14, 6) +DI = 14-bar sum of +DM / 14-bar sum of TR × 100'],
  ['dmi_MDI', 'value', 'DMI −DI = 14-bar sum of −DM / 14-bar sum of TR × 100'],
  ['dmi_ADX', 'value', 'ADX = MA(|MDI − PDI| / (MDI + PDI) × 100, 6)'],
  ['dmi_ADXR', 'value', 'ADXR = (ADX + ADX six bars back) / 2'],
  ['trix_TRIX', 'value', 'TRIX(12, 20): percent change of EMA(EMA(EMA(C, 12), 12), 12)'],
  ['trix_TRMA', 'value', 'TRMA = MA(TRIX, 20)'],
  ['obv_OBV', 'value', 'On-balance volume in shares: running sum of ±volume since the first bar used (up day +, down day −, flat 0)'],
  ['vr_VR', 'value', 'VR(26) = volume of up days / volume of other days over 26 bars × 100 (flat days count as down)'],
  ['psy_PSY', 'value', 'PSY(12) = up days among the last 12 × 100 / 12, percent'],
  ['psy_PSYMA', 'value', 'PSYMA = MA(PSY, 6)'],
  ['roc_ROC', 'value', 'ROC(12) = (C − C 12 bars back) / C 12 bars back × 100, percent'],
  ['roc_MAROC', 'value', 'MAROC = MA(ROC, 6)'],
  ['mtm_MTM', 'value', 'MTM(12) = C − C 12 bars back, price units'],
  ['mtm_MTMMA', 'value', 'MTMMA = MA(MTM, 6)'],
  ['dma_DIF', 'value', 'DMA(10, 50, 10) DIF = MA10 − MA50, price units'],
  ['dma_DIFMA', 'value', 'DIFMA = MA(DIF, 10)'],
  ['bbi_BBI', 'price', 'BBI = (MA3 + MA6 + MA12 + MA20) / 4'],
  ['vol_MA_5', 'value', 'MA(volume, 5), shares'],
  ['vol_MA_10', 'value', 'MA(volume, 10), shares'],
  ['brar_AR', 'value', 'BRAR(26) AR = Σ(H − O) / Σ(O − L) × 100 over 26 bars'],
  ['brar_BR', 'value', 'BR = Σmax(0, H − C′) / Σmax(0, C′ − L) × 100 over 26 bars, C′ the previous close'],
  ['mfi_MFI', 'value', 'MFI(14) = 100 − 100 / (1 + positive / negative money flow over 14 bars), flow = TP × volume; 0..100'],
] as const satisfies ReadonlyArray<readonly [string, 'id' | 'price' | 'value', string]>

export type TechnicalColumn = (typeof TECHNICAL_COLUMNS)[number][0]

/** The 52 numeric columns (everything after code, name, date). */
export type NumericColumn = Exclude<TechnicalColumn, 'code' | 'name' | 'date'>

/** One row: code, name, date, then 52 numbers (null where the history is too short). */
export type TechnicalRow = { code: string; name: string | null; date: string } & { [K in NumericColumn]: number | null }

/** The numeric columns in row order: a step writes its values at these indexes (src/domain/indicators/step.ts). */
export const NUMERIC_COLUMNS = TECHNICAL_COLUMNS.filter(([, kind]) => kind !== 'id').map(([name]) => name) as NumericColumn[]
