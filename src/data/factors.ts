/**
 * The factor catalogue of /v1/screen: every factor a screening expression may name, per market,
 * with its meaning, unit and where the after-close job takes it from. One table: the parser, the
 * factor-table builder, `/openapi.json` and the README all read it.
 *
 * Sources: `quote` the day's whole-market list (price, volume, size); `finance` the latest report
 * published on or before the date (point in time); `dividend` the cash dividends with ex-dates in
 * the 12 months up to the date; `technical` the precomputed technical table of the date (the
 * columns of /v1/technical); `derived` computed from other factors of the same row.
 *
 * For A-shares (src/domain/fundamental-factors.ts): TTM = latest cumulative report + last annual
 * − the same period a year before; share counts are the market list's caps over its price (a
 * backfilled day uses the list of the backfill's start). A value the upstream lacks is null.
 *
 * For HK and US (src/jobs/foreign-factors.ts): only what the day's whole-market list (Eastmoney
 * clist, upstreams.md §3.1) prints, in the listing's currency: HKD for hk, USD for us; market
 * caps in 100 million of that currency, as hs's are in 100 million CNY. No statements, dividends
 * or technicals are built for them, so naming one of those on hk or us is a 422.
 */
export type ScreenMarket = 'hs' | 'hk' | 'us'
export const SCREEN_MARKETS: readonly ScreenMarket[] = ['hs', 'hk', 'us']

type FactorSource = 'quote' | 'finance' | 'dividend' | 'technical' | 'derived'
type FactorGroup = 'price' | 'volume' | 'valuation' | 'size' | 'profitability' | 'growth' | 'dividend' | 'money_flow' | 'technical'

export interface Factor {
  name: string
  group: FactorGroup
  meaning: string
  unit: string
  /** The markets that have the factor, each with where its value comes from. */
  sources: Partial<Record<ScreenMarket, FactorSource>>
}

/** Every market, from the same source. */
const ALL = (s: FactorSource) => ({ hs: s, hk: s, us: s })
/** A-shares only. */
const HS = (s: FactorSource) => ({ hs: s })
/** A-shares from `hs`; HK and US from their whole-market list (the `quote` source). */
const HS_AND_LISTS = (hs: FactorSource) => ({ hs, hk: 'quote' as const, us: 'quote' as const })
/** HK and US only, from their whole-market list. */
const LISTS = { hk: 'quote', us: 'quote' } as const

const f = (name: string, group: FactorGroup, sources: Factor['sources'], unit: string, meaning: string): Factor => ({ name, group, sources, unit, meaning })

/** Technical columns offered as factors: every /v1/technical column except code, name, date and closePrice. */
const TECHNICAL: Array<[string, string, string]> = [
  ['ma_MA_5', 'CNY', '5-day moving average of the close'],
  ['ma_MA_10', 'CNY', '10-day moving average of the close'],
  ['ma_MA_20', 'CNY', '20-day moving average of the close'],
  ['ma_MA_30', 'CNY', '30-day moving average of the close'],
  ['ma_MA_60', 'CNY', '60-day moving average of the close'],
  ['ma_MA_120', 'CNY', '120-day moving average of the close'],
  ['ma_MA_250', 'CNY', '250-day moving average of the close'],
  ['ema_EMA_12', 'CNY', '12-day exponential moving average (alpha 2/13)'],
  ['ema_EMA_26', 'CNY', '26-day exponential moving average (alpha 2/27)'],
  ['macd_DIF', 'CNY', 'MACD DIF = EMA12 - EMA26'],
  ['macd_DEA', 'CNY', 'MACD DEA = EMA(DIF, 9)'],
  ['macd_MACD', 'CNY', 'MACD bar = 2 x (DIF - DEA)'],
  ['kdj_K', 'index 0-100', 'KDJ K (9, 3, 3)'],
  ['kdj_D', 'index 0-100', 'KDJ D (9, 3, 3)'],
  ['kdj_J', 'index', 'KDJ J = 3K - 2D'],
  ['rsi_RSI_6', 'index 0-100', '6-day RSI'],
  ['rsi_RSI_12', 'index 0-100', '12-day RSI'],
  ['rsi_RSI_24', 'index 0-100', '24-day RSI'],
  ['boll_UPPER', 'CNY', 'Bollinger upper band (20, 2)'],
  ['boll_MID', 'CNY', 'Bollinger middle band (MA20)'],
  ['boll_LOWER', 'CNY', 'Bollinger lower band (20, 2)'],
  ['wr_WR_10', 'index 0-100', 'Williams %R over 10 days (0 at the high)'],
  ['wr_WR_6', 'index 0-100', 'Williams %R over 6 days (0 at the high)'],
  ['cci_CCI', 'index', 'Commodity channel index (14)'],
  ['bias_BIAS_6', '%', 'Close over its 6-day MA, minus 1'],
  ['bias_BIAS_12', '%', 'Close over its 12-day MA, minus 1'],
  ['bias_BIAS_24', '%', 'Close over its 24-day MA, minus 1'],
  ['atr_TR', 'CNY', 'True range of the day'],
  ['atr_ATR', 'CNY', 'Average true range (20-day simple mean)'],
  ['dmi_PDI', 'index 0-100', 'DMI +DI (14)'],
  ['dmi_MDI', 'index 0-100', 'DMI -DI (14)'],
  ['dmi_ADX', 'index 0-100', 'DMI ADX (6-day mean)'],
  ['dmi_ADXR', 'index 0-100', 'DMI ADXR'],
  ['trix_TRIX', '%', 'TRIX (12)'],
  ['trix_TRMA', '%', 'TRIX moving average (20)'],
  ['obv_OBV', 'shares', 'On-balance volume'],
  ['vr_VR', '%', 'Volume ratio VR (26)'],
  ['psy_PSY', '%', 'Psychological line: share of up days in 12'],
  ['psy_PSYMA', '%', 'PSY moving average (6)'],
  ['roc_ROC', '%', 'Rate of change over 12 days'],
  ['roc_MAROC', '%', 'ROC moving average (6)'],
  ['mtm_MTM', 'CNY', 'Momentum: close minus the close 12 days back'],
  ['mtm_MTMMA', 'CNY', 'MTM moving average (6)'],
  ['dma_DIF', 'CNY', 'DMA: MA10 - MA50'],
  ['dma_DIFMA', 'CNY', 'DMA moving average (10)'],
  ['bbi_BBI', 'CNY', 'Bull and bear index: mean of MA3, MA6, MA12, MA20'],
  ['vol_MA_5', 'shares', '5-day moving average of volume'],
  ['vol_MA_10', 'shares', '10-day moving average of volume'],
  ['brar_AR', '%', 'AR sentiment (26)'],
  ['brar_BR', '%', 'BR willingness (26)'],
  ['mfi_MFI', 'index 0-100', 'Money flow index (14)'],
]

export const FACTORS: readonly Factor[] = [
  f('ClosePrice', 'price', ALL('quote'), 'CNY (HKD, USD)', 'Close of the date (unadjusted: the price that traded)'),
  f('ChangePCT', 'price', ALL('quote'), '%', 'Change of the close from the previous close'),
  f('Amplitude', 'price', ALL('quote'), '%', '(high - low) / previous close'),
  f('Change5D', 'price', HS('technical'), '%', 'Change over the last 5 sessions (adjusted)'),
  f('Change20D', 'price', HS('technical'), '%', 'Change over the last 20 sessions (adjusted)'),
  f('Change60D', 'price', HS_AND_LISTS('technical'), '%', 'Change over the last 60 sessions (hs: adjusted, from the daily bars; hk, us: the list\'s 60-day change f24)'),
  f('ChangeYTD', 'price', LISTS, '%', 'Change since the last close of the previous year (the list\'s f25)'),
  f('Volume', 'volume', ALL('quote'), 'shares', 'Volume of the date'),
  f('Amount', 'volume', ALL('quote'), 'CNY (HKD, USD)', 'Turnover amount of the date'),
  f('TurnoverRate', 'volume', ALL('quote'), '%', 'Volume over float shares, x 100'),
  f('VolumeRatio', 'volume', HS('technical'), 'ratio', 'Volume over the mean volume of the 5 sessions before'),
  f('PE_TTM', 'valuation', HS_AND_LISTS('derived'), 'ratio', 'Close over EPS of the last four quarters (null when EPS <= 0; hk, us: the list\'s trailing P/E, f115 else f9, null where it is not positive)'),
  f('PE_LYR', 'valuation', HS('derived'), 'ratio', 'Close over EPS of the last annual report (null when EPS <= 0)'),
  f('PB', 'valuation', HS_AND_LISTS('derived'), 'ratio', 'Close over book value per share of the latest report (hs: close / BPS, null when BPS <= 0 or the report\'s shares are not today\'s, as after a bonus issue; hk, us: the list\'s P/B, f23)'),
  f('PS_TTM', 'valuation', HS('derived'), 'ratio', 'Total market cap over revenue of the last four quarters'),
  f('PCF_TTM', 'valuation', HS('derived'), 'ratio', 'Total market cap over operating cash flow of the last four quarters (null when <= 0)'),
  f('PEG', 'valuation', HS('derived'), 'ratio', 'PE_TTM over NetProfitYoY (null when either is <= 0)'),
  f('TotalMV', 'size', ALL('quote'), '100 million (CNY, HKD, USD)', 'Total market cap: close x total shares'),
  f('FloatMV', 'size', ALL('quote'), '100 million (CNY, HKD, USD)', 'Float market cap: close x float shares'),
  f('TotalShares', 'size', HS('quote'), 'shares', 'Total shares: the market list\'s total cap over its price'),
  f('FloatShares', 'size', HS('quote'), 'shares', 'Float shares: the market list\'s float cap over its price'),
  f('ListDays', 'size', HS('quote'), 'days', 'Calendar days since the listing date'),
  f('EPS_TTM', 'profitability', HS('finance'), 'CNY', 'Attributable net profit of the last four quarters over total shares'),
  f('BPS', 'profitability', HS('finance'), 'CNY', 'Book value (equity of the parent) per share at the latest report\'s period end, as published (Eastmoney 业绩报表 BPS): per old share after a bonus-share issue, until the next report'),
  f('ROETTM', 'profitability', HS('finance'), '%', 'Net profit of the last four quarters over the parent\'s equity of the latest report (BPS x total shares); null when that is not positive, or as PB is'),
  f('GrossMargin', 'profitability', HS('finance'), '%', 'Gross margin of the latest report'),
  f('NetMargin', 'profitability', HS('finance'), '%', 'Net profit over revenue, last four quarters'),
  f('DebtRatio', 'profitability', HS('finance'), '%', 'Total liabilities over total assets, latest report'),
  f('RevenueYoY', 'growth', HS('finance'), '%', 'Revenue growth of the latest report over the same period a year before'),
  f('NetProfitYoY', 'growth', HS('finance'), '%', 'Net profit (parent) growth of the latest report over the same period a year before'),
  f('DividendYield', 'dividend', HS('dividend'), '%', 'Cash dividends per share with ex-dates in the last 12 months over the close'),
  f('DividendPerShare', 'dividend', HS('dividend'), 'CNY', 'Cash dividends per share with ex-dates in the last 12 months'),
  // The precomputed technical table is the A-share market's only (src/jobs/day-tables.ts).
  ...TECHNICAL.map(([name, unit, meaning]) => f(name, 'technical', HS('technical'), unit, meaning)),
]

const BY_NAME = new Map(FACTORS.map((x) => [x.name, x]))

/** A factor by its exact name. */
export const factorByName = (name: string): Factor | undefined => BY_NAME.get(name)

/** The factor names a market has, in catalogue order. */
export function factorNames(market: ScreenMarket): string[] {
  return FACTORS.filter((x) => x.sources[market] !== undefined).map((x) => x.name)
}
