/**
 * The screening presets: each is an expression in the factor language, shown to users so they can
 * start from one and edit it. LowPE, LowPB, HighDividend, PEG and HighROE are the classic
 * screens; the other 17 are ours. Every preset is tested to parse for its market and to select stocks on the
 * emulator (test/screen-factors.test.ts).
 */
import type { ScreenMarket } from './factors'

export interface Preset {
  name: string
  market: ScreenMarket
  meaning: string
  expr: string
  /** Default sort when the caller gives no `orderby`. */
  orderby: string
  desc: boolean
}

const p = (name: string, meaning: string, expr: string, orderby: string, desc: boolean, market: ScreenMarket = 'hs'): Preset => ({ name, market, meaning, expr, orderby, desc })

export const PRESETS: readonly Preset[] = [
  p('LowPE', 'Profitable stocks at a low earnings multiple', 'intersect([PE_TTM > 0, PE_TTM < 15])', 'PE_TTM', false),
  p('LowPB', 'Priced below or near book value', 'intersect([PB > 0, PB < 1.2])', 'PB', false),
  p('HighDividend', 'Dividend yield above 4% with positive earnings', 'intersect([DividendYield > 4, PE_TTM > 0])', 'DividendYield', true),
  p('PEG', 'Growth at a reasonable price: PEG below 1 with real growth', 'intersect([PEG > 0, PEG < 1, NetProfitYoY > 10])', 'PEG', false),
  p('HighROE', 'Return on equity above 15% over the last four quarters', 'intersect([ROETTM > 15, DebtRatio < 70])', 'ROETTM', true),
  p('Value', 'Cheap on earnings and book at once', 'intersect([PE_TTM > 0, PE_TTM < 20, PB > 0, PB < 2])', 'PE_TTM', false),
  p('Quality', 'High ROE, high gross margin, low debt', 'intersect([ROETTM > 12, GrossMargin > 30, DebtRatio < 50])', 'ROETTM', true),
  p('Growth', 'Revenue and profit both growing fast', 'intersect([RevenueYoY > 20, NetProfitYoY > 20])', 'NetProfitYoY', true),
  p('SmallCap', 'Smallest 10% of the market by float cap, profitable', 'intersect([FloatMV < 30, PE_TTM > 0])', 'FloatMV', false),
  p('LargeCap', 'The 100 largest stocks by total market cap', 'top(TotalMV, 100)', 'TotalMV', true),
  p('CashCow', 'Cheap on operating cash flow', 'intersect([PCF_TTM > 0, PCF_TTM < 10, NetMargin > 10])', 'PCF_TTM', false),
  p('LowPS', 'Cheap on sales', 'intersect([PS_TTM > 0, PS_TTM < 1])', 'PS_TTM', false),
  p('GoldenCross', 'MACD above its signal line with the bar turning positive', 'intersect([macd_DIF > macd_DEA, macd_MACD > 0, macd_DIF < 0.05 * ClosePrice])', 'macd_MACD', true),
  p('Oversold', 'RSI and KDJ both oversold', 'intersect([rsi_RSI_6 < 20, kdj_J < 0])', 'rsi_RSI_6', false),
  p('Overbought', 'RSI and KDJ both overbought', 'intersect([rsi_RSI_6 > 80, kdj_J > 100])', 'rsi_RSI_6', true),
  p('BullishAlignment', 'Moving averages stacked upward: MA5 > MA10 > MA20 > MA60', 'intersect([ma_MA_5 > ma_MA_10, ma_MA_10 > ma_MA_20, ma_MA_20 > ma_MA_60])', 'Change20D', true),
  p('AboveMA250', 'Trading above the 250-day average and rising over 60 sessions', 'intersect([ClosePrice > ma_MA_250, Change60D > 0])', 'Change60D', true),
  p('BollingerBreakout', 'Close above the upper Bollinger band', 'ClosePrice > boll_UPPER', 'ChangePCT', true),
  p('VolumeSurge', 'Volume more than twice its 5-day mean on an up day', 'intersect([VolumeRatio > 2, ChangePCT > 0])', 'VolumeRatio', true),
  p('Momentum', 'Strongest 20-session movers that are still below overbought', 'intersect([top(Change20D, 200), rsi_RSI_12 < 75])', 'Change20D', true),
  p('HKLowPE', 'Hong Kong: profitable at a low multiple', 'intersect([PE_TTM > 0, PE_TTM < 10])', 'PE_TTM', false, 'hk'),
  p('USLargeCap', 'US: the 50 largest by market cap', 'top(TotalMV, 50)', 'TotalMV', true, 'us'),
]

/** The presets' names, in table order: the `enum` of /v1/screen's `preset` in the OpenAPI document. */
export const PRESET_NAMES = PRESETS.map((x) => x.name) as [string, ...string[]]

const BY_NAME = new Map(PRESETS.map((x) => [x.name.toLowerCase(), x]))

/** A preset by name (case-insensitive). */
export const presetByName = (name: string): Preset | undefined => BY_NAME.get(name.toLowerCase())
