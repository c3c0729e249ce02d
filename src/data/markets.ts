/**
 * Reference tables for instruments whose upstream identifiers cannot be derived from the code
 * alone. Data, not logic: channels and the symbol parser read them.
 */

/** Chinese futures exchanges and the Eastmoney market number of each (efinance MARKET_NUMBER_DICT). */
export const FUTURES_EXCHANGES = {
  SHFE: { eastmoney: 113 },
  DCE: { eastmoney: 114 },
  CZCE: { eastmoney: 115 },
  CFFEX: { eastmoney: 8 },
  INE: { eastmoney: 142 },
  GFEX: { eastmoney: 225 },
} as const
export type FuturesExchange = keyof typeof FUTURES_EXCHANGES

/** Futures products we accept (`fu<PRODUCT><YYMM>`), with their exchange and Chinese name. */
export const FUTURES_PRODUCTS: Record<string, { exchange: FuturesExchange; name: string }> = {
  RB: { exchange: 'SHFE', name: '螺纹钢' },
  CU: { exchange: 'SHFE', name: '沪铜' },
  AL: { exchange: 'SHFE', name: '沪铝' },
  AU: { exchange: 'SHFE', name: '沪金' },
  AG: { exchange: 'SHFE', name: '沪银' },
  RU: { exchange: 'SHFE', name: '橡胶' },
  M: { exchange: 'DCE', name: '豆粕' },
  I: { exchange: 'DCE', name: '铁矿石' },
  Y: { exchange: 'DCE', name: '豆油' },
  P: { exchange: 'DCE', name: '棕榈油' },
  SR: { exchange: 'CZCE', name: '白糖' },
  CF: { exchange: 'CZCE', name: '棉花' },
  TA: { exchange: 'CZCE', name: 'PTA' },
  MA: { exchange: 'CZCE', name: '甲醇' },
  IF: { exchange: 'CFFEX', name: '沪深300股指' },
  IC: { exchange: 'CFFEX', name: '中证500股指' },
  IH: { exchange: 'CFFEX', name: '上证50股指' },
  IM: { exchange: 'CFFEX', name: '中证1000股指' },
  SC: { exchange: 'INE', name: '原油' },
  SI: { exchange: 'GFEX', name: '工业硅' },
  LC: { exchange: 'GFEX', name: '碳酸锂' },
}

/** Forex pairs we accept (`fx<PAIR>`), with the Eastmoney market number (akshare forex_em.py). */
export const FOREX_PAIRS: Record<string, { eastmoney: number; name: string }> = {
  USDCNH: { eastmoney: 133, name: '美元兑离岸人民币' },
  EURUSD: { eastmoney: 119, name: '欧元兑美元' },
  USDJPY: { eastmoney: 119, name: '美元兑日元' },
  GBPUSD: { eastmoney: 119, name: '英镑兑美元' },
  AUDUSD: { eastmoney: 119, name: '澳元兑美元' },
  USDCHF: { eastmoney: 119, name: '美元兑瑞郎' },
  USDCAD: { eastmoney: 119, name: '美元兑加元' },
}

/**
 * US indexes: our identifier → each upstream's. Eastmoney's `100.NDX` is the Nasdaq index akshare
 * labels "纳斯达克"; Tencent uses `usDJI`/`usIXIC`/`usINX`; Sina `gb_$dji`/`gb_ixic`/`gb_$inx`.
 */
export const US_INDEXES: Record<string, { eastmoney: string; tencent: string; sina: string; name: string }> = {
  DJI: { eastmoney: '100.DJIA', tencent: 'usDJI', sina: 'gb_$dji', name: '道琼斯' },
  IXIC: { eastmoney: '100.NDX', tencent: 'usIXIC', sina: 'gb_ixic', name: '纳斯达克' },
  SPX: { eastmoney: '100.SPX', tencent: 'usINX', sina: 'gb_$inx', name: '标普500' },
}

/** US listing venues: Eastmoney market number and Tencent K-line suffix. */
export const US_EXCHANGES = {
  NASDAQ: { eastmoney: 105, tencentSuffix: '.OQ' },
  NYSE: { eastmoney: 106, tencentSuffix: '.N' },
  AMEX: { eastmoney: 107, tencentSuffix: '.AM' },
} as const
export type UsExchange = keyof typeof US_EXCHANGES

/**
 * Known US listings. A ticker not listed here is still accepted; channels then try NASDAQ,
 * NYSE and AMEX in turn.
 */
export const US_LISTINGS: Record<string, UsExchange> = {
  AAPL: 'NASDAQ', MSFT: 'NASDAQ', NVDA: 'NASDAQ', AMZN: 'NASDAQ', GOOGL: 'NASDAQ', META: 'NASDAQ',
  TSLA: 'NASDAQ', NFLX: 'NASDAQ', PDD: 'NASDAQ', JD: 'NASDAQ', BIDU: 'NASDAQ', NTES: 'NASDAQ',
  AMD: 'NASDAQ', INTC: 'NASDAQ', BABA: 'NYSE', NIO: 'NYSE', JPM: 'NYSE', KO: 'NYSE', XOM: 'NYSE',
  BRK: 'NYSE', TME: 'NYSE', LI: 'NASDAQ', XPEV: 'NYSE', BILI: 'NASDAQ',
}
