/**
 * Reference data for the simulated market: the real instruments it names (with rough price
 * levels at the start of the history and today) and the parameters of the synthetic ones.
 * Data, not logic: levels are plausible magnitudes, not quotes.
 */

/** Price level (walk scale) at 2016-08 and in late 2026; the walk mean-reverts to the line between. */
export interface Levels {
  start: number
  end: number
}

/** A real A-share stock the model must name correctly. */
export interface RealStock extends Levels {
  name: string
  listDate: string
  totalShares: number
  floatShares: number
  /** Typical daily turnover in percent. */
  turnover: number
  /** Monthly volatility (large caps move less than the board's typical stock). */
  sigma: number
}

export const REAL_STOCKS: Record<string, RealStock> = {
  sh600519: { name: '贵州茅台', listDate: '2001-08-27', start: 300, end: 1650, totalShares: 1.2562e9, floatShares: 1.2562e9, turnover: 0.3, sigma: 0.08 },
  sz000001: { name: '平安银行', listDate: '1991-04-03', start: 9.2, end: 12.5, totalShares: 1.9406e10, floatShares: 1.9405e10, turnover: 0.5, sigma: 0.065 },
  sh601318: { name: '中国平安', listDate: '2007-03-01', start: 34, end: 62, totalShares: 1.8280e10, floatShares: 1.0762e10, turnover: 0.5, sigma: 0.07 },
  sz000858: { name: '五粮液', listDate: '1998-04-27', start: 33, end: 150, totalShares: 3.8816e9, floatShares: 3.8816e9, turnover: 0.5, sigma: 0.09 },
  sz300750: { name: '宁德时代', listDate: '2018-06-11', start: 25, end: 520, totalShares: 4.5613e9, floatShares: 3.9e9, turnover: 0.8, sigma: 0.11 },
  sh688981: { name: '中芯国际', listDate: '2020-07-16', start: 25, end: 95, totalShares: 7.9883e9, floatShares: 1.9928e9, turnover: 1.5, sigma: 0.13 },
  sh600036: { name: '招商银行', listDate: '2002-04-09', start: 17, end: 46, totalShares: 2.5220e10, floatShares: 2.0629e10, turnover: 0.3, sigma: 0.06 },
  sh601398: { name: '工商银行', listDate: '2006-10-27', start: 4.4, end: 7.4, totalShares: 3.5640e11, floatShares: 2.6961e11, turnover: 0.2, sigma: 0.05 },
  sz002594: { name: '比亚迪', listDate: '2011-06-30', start: 50, end: 340, totalShares: 2.9093e9, floatShares: 1.1628e9, turnover: 1.0, sigma: 0.11 },
  sh600900: { name: '长江电力', listDate: '2003-11-18', start: 14, end: 30, totalShares: 2.4468e10, floatShares: 2.4468e10, turnover: 0.25, sigma: 0.05 },
  bj830799: { name: '艾融软件', listDate: '2021-11-15', start: 12, end: 40, totalShares: 2.1e8, floatShares: 1.07e8, turnover: 3.0, sigma: 0.15 },
}

/** Index-like series: volume is a sum over members; amount = volume × a typical member price. */
export interface IndexSpec extends Levels {
  name: string
  listDate: string
  /** Monthly volatility of the walk. */
  sigma: number
  /** Typical daily volume in shares. */
  volume: number
  /** Typical amount per share traded (currency units). */
  amountPx: number
}

export const INDEXES: Record<string, IndexSpec> = {
  sh000001: { name: '上证指数', listDate: '1991-07-15', start: 3000, end: 3350, sigma: 0.045, volume: 3.5e10, amountPx: 12 },
  sh000300: { name: '沪深300', listDate: '2005-04-08', start: 3300, end: 4000, sigma: 0.05, volume: 1.2e10, amountPx: 20 },
  sh000016: { name: '上证50', listDate: '2004-01-02', start: 2200, end: 2800, sigma: 0.05, volume: 4e9, amountPx: 25 },
  sh000905: { name: '中证500', listDate: '2007-01-15', start: 6300, end: 6300, sigma: 0.06, volume: 1e10, amountPx: 12 },
  sh000852: { name: '中证1000', listDate: '2014-10-17', start: 6800, end: 6600, sigma: 0.065, volume: 1.5e10, amountPx: 10 },
  sh000688: { name: '科创50', listDate: '2020-07-23', start: 1100, end: 1150, sigma: 0.07, volume: 5e8, amountPx: 50 },
  sz399001: { name: '深证成指', listDate: '1995-01-23', start: 10500, end: 11500, sigma: 0.055, volume: 4e10, amountPx: 12 },
  sz399006: { name: '创业板指', listDate: '2010-06-01', start: 2150, end: 2450, sigma: 0.07, volume: 5e9, amountPx: 25 },
  sz399005: { name: '中小100', listDate: '2006-01-24', start: 6700, end: 6800, sigma: 0.06, volume: 4e9, amountPx: 20 },
  bj899050: { name: '北证50', listDate: '2022-11-21', start: 1000, end: 1250, sigma: 0.09, volume: 3e8, amountPx: 15 },
}

/** Eastmoney industry boards (`pt<BK number>`), level ranges only. */
export const SECTORS: Record<string, string> = {
  '0477': '酿酒行业', '0475': '银行', '0473': '证券', '1036': '半导体', '0437': '煤炭行业',
  '0478': '有色金属', '0479': '钢铁行业', '0480': '航天航空', '0481': '汽车零部件', '0465': '化学制药',
  '0474': '保险', '0451': '房地产开发', '0456': '家电行业', '0459': '电子元件', '0428': '电力行业',
  '0420': '航空机场', '0422': '物流行业', '0425': '工程建设', '0424': '水泥建材', '0438': '食品饮料',
  '0448': '通信设备', '0450': '航运港口', '0457': '电网设备', '0464': '石油行业', '0482': '商业百货',
  '0485': '旅游酒店', '0727': '医疗服务', '0737': '软件开发', '1015': '能源金属', '1031': '光伏设备',
  '1033': '电池',
}

export interface EtfSpec extends Levels {
  name: string
  listDate: string
  /** Fund units outstanding. */
  units: number
}

export const ETFS: Record<string, EtfSpec> = {
  sh510300: { name: '沪深300ETF', listDate: '2012-05-28', start: 3.3, end: 4.6, units: 3.5e10 },
  sh510050: { name: '上证50ETF', listDate: '2005-02-23', start: 2.2, end: 3.0, units: 2.2e10 },
  sh510500: { name: '中证500ETF', listDate: '2013-03-15', start: 6.4, end: 7.0, units: 1.2e10 },
  sh588000: { name: '科创50ETF', listDate: '2020-11-16', start: 1.3, end: 1.4, units: 6e10 },
  sh512880: { name: '证券ETF', listDate: '2016-08-08', start: 1.0, end: 1.2, units: 3.5e10 },
  sh513100: { name: '纳指ETF', listDate: '2013-05-15', start: 1.8, end: 1.9, units: 6e9 },
  sz159915: { name: '创业板ETF', listDate: '2011-12-09', start: 2.1, end: 2.9, units: 1.5e10 },
  sz159919: { name: '沪深300ETF', listDate: '2012-05-28', start: 3.4, end: 4.7, units: 1.1e10 },
  sz159941: { name: '纳指ETF', listDate: '2015-07-13', start: 1.0, end: 1.35, units: 1.2e10 },
  sh510880: { name: '红利ETF', listDate: '2007-01-18', start: 2.6, end: 3.1, units: 5e9 },
  sh512100: { name: '中证1000ETF', listDate: '2016-11-04', start: 2.3, end: 3.0, units: 1e10 },
  sh512010: { name: '医药ETF', listDate: '2013-09-23', start: 1.4, end: 1.0, units: 1e10 },
  sh512480: { name: '半导体ETF', listDate: '2019-06-12', start: 1.0, end: 1.3, units: 1.3e10 },
  sh512660: { name: '军工ETF', listDate: '2016-08-08', start: 1.1, end: 1.2, units: 1.1e10 },
  sh512690: { name: '酒ETF', listDate: '2019-05-06', start: 0.9, end: 0.7, units: 2e10 },
  sh512800: { name: '银行ETF', listDate: '2017-08-03', start: 1.0, end: 1.3, units: 1e10 },
  sh515030: { name: '新能源车ETF', listDate: '2020-03-04', start: 1.2, end: 1.6, units: 3e9 },
  sh515050: { name: '5GETF', listDate: '2019-10-16', start: 1.0, end: 1.4, units: 4e9 },
  sh518880: { name: '黄金ETF', listDate: '2013-07-29', start: 2.8, end: 8.5, units: 5e9 },
  sh513050: { name: '中概互联网ETF', listDate: '2017-01-18', start: 1.3, end: 1.6, units: 3e10 },
  sh513180: { name: '恒生科技指数ETF', listDate: '2021-05-25', start: 0.9, end: 0.75, units: 4e10 },
  sh510330: { name: '沪深300ETF华夏', listDate: '2012-12-25', start: 3.4, end: 4.7, units: 1.8e10 },
  sh511010: { name: '国债ETF', listDate: '2013-03-25', start: 115, end: 140, units: 5e7 },
  sh588080: { name: '科创板50ETF', listDate: '2020-11-16', start: 1.2, end: 1.4, units: 2e10 },
  sz159949: { name: '创业板50ETF', listDate: '2016-07-22', start: 0.9, end: 1.4, units: 8e9 },
  sz159995: { name: '芯片ETF', listDate: '2020-02-10', start: 1.2, end: 1.5, units: 1.2e10 },
  sz159920: { name: '恒生ETF', listDate: '2012-10-22', start: 1.4, end: 1.5, units: 1e10 },
  sz159928: { name: '消费ETF', listDate: '2013-09-16', start: 1.0, end: 0.8, units: 5e9 },
  sz159901: { name: '深证100ETF', listDate: '2006-04-24', start: 3.5, end: 3.3, units: 1.5e9 },
  sz159845: { name: '中证1000ETF', listDate: '2021-03-19', start: 2.4, end: 2.9, units: 6e9 },
}

/**
 * HK and US listings: levels, share counts, typical turnover %, and the valuation the list
 * prints: `pe` (trailing P/E) and `pb` at the `end` price, from which the model fixes EPS = end /
 * pe and book value per share = end / pb in the listing's currency (held constant, so the ratios
 * move with the price); absent = the list prints none (a loss-maker, or no data).
 */
export interface ForeignSpec extends Levels {
  name: string
  listDate: string
  shares: number
  turnover: number
  pe?: number
  pb?: number
}

export const HK_STOCKS: Record<string, ForeignSpec> = {
  '00700': { name: '腾讯控股', listDate: '2004-06-16', start: 200, end: 520, shares: 9.2e9, turnover: 0.2, pe: 22, pb: 4.2 },
  '09988': { name: '阿里巴巴-W', listDate: '2019-11-26', start: 180, end: 150, shares: 1.9e10, turnover: 0.5, pe: 16, pb: 1.7 },
  '03690': { name: '美团-W', listDate: '2018-09-20', start: 70, end: 110, shares: 6.1e9, turnover: 0.6, pe: 28, pb: 4.5 },
  '01810': { name: '小米集团-W', listDate: '2018-07-09', start: 17, end: 45, shares: 2.5e10, turnover: 0.8, pe: 30, pb: 5.1 },
  '00941': { name: '中国移动', listDate: '1997-10-23', start: 85, end: 85, shares: 2.14e10, turnover: 0.15, pe: 11, pb: 1.1 },
  '00005': { name: '汇丰控股', listDate: '1991-01-02', start: 55, end: 100, shares: 1.78e10, turnover: 0.15, pe: 9, pb: 1.1 },
  '01299': { name: '友邦保险', listDate: '2010-10-29', start: 50, end: 70, shares: 1.08e10, turnover: 0.3, pe: 17, pb: 2.3 },
  '02318': { name: '中国平安', listDate: '2004-06-24', start: 40, end: 55, shares: 7.45e9, turnover: 0.4, pe: 7, pb: 0.8 },
  '00388': { name: '香港交易所', listDate: '2000-06-27', start: 190, end: 400, shares: 1.27e9, turnover: 0.4, pe: 38, pb: 9.5 },
  '09618': { name: '京东集团-SW', listDate: '2020-06-18', start: 220, end: 130, shares: 3.1e9, turnover: 0.5, pe: 9, pb: 1.3 },
  '01024': { name: '快手-W', listDate: '2021-02-05', start: 250, end: 65, shares: 4.3e9, turnover: 0.6, pe: 13, pb: 3.2 },
  '01211': { name: '比亚迪股份', listDate: '2002-07-31', start: 50, end: 110, shares: 1.1e9, turnover: 0.6, pe: 20, pb: 4.3 },
  '00981': { name: '中芯国际', listDate: '2004-03-18', start: 8, end: 60, shares: 8.0e9, turnover: 1.0, pe: 55, pb: 1.9 },
  '02020': { name: '安踏体育', listDate: '2007-07-10', start: 20, end: 90, shares: 2.8e9, turnover: 0.3, pe: 18, pb: 4.1 },
  '00883': { name: '中国海洋石油', listDate: '2001-02-28', start: 9, end: 19, shares: 4.7e10, turnover: 0.2, pe: 6, pb: 1.2 },
  '00939': { name: '建设银行', listDate: '2005-10-27', start: 5.3, end: 7.5, shares: 2.4e11, turnover: 0.1, pe: 4.6, pb: 0.5 },
  '01398': { name: '工商银行', listDate: '2006-10-27', start: 4.3, end: 6, shares: 8.7e10, turnover: 0.1, pe: 5.2, pb: 0.5 },
  '09999': { name: '网易-S', listDate: '2020-06-11', start: 130, end: 200, shares: 3.2e9, turnover: 0.3, pe: 17, pb: 3.6 },
  '09888': { name: '百度集团-SW', listDate: '2021-03-23', start: 250, end: 100, shares: 2.8e9, turnover: 0.3, pe: 9, pb: 0.9 },
  '02269': { name: '药明生物', listDate: '2017-06-13', start: 20, end: 25, shares: 4.1e9, turnover: 1.0, pe: 25, pb: 1.8 },
  '00175': { name: '吉利汽车', listDate: '2005-01-03', start: 5, end: 18, shares: 1.0e10, turnover: 0.5, pe: 9, pb: 1.5 },
  '02015': { name: '理想汽车-W', listDate: '2021-08-12', start: 130, end: 90, shares: 1.06e9, turnover: 1.0, pe: 18, pb: 1.9 },
}

export const US_STOCKS: Record<string, ForeignSpec> = {
  AAPL: { name: '苹果', listDate: '1980-12-12', start: 26, end: 260, shares: 1.5e10, turnover: 0.35, pe: 35, pb: 52 },
  MSFT: { name: '微软', listDate: '1986-03-13', start: 57, end: 500, shares: 7.4e9, turnover: 0.3, pe: 37, pb: 11 },
  NVDA: { name: '英伟达', listDate: '1999-01-22', start: 6, end: 180, shares: 2.44e10, turnover: 0.8, pe: 52, pb: 45 },
  AMZN: { name: '亚马逊', listDate: '1997-05-15', start: 38, end: 230, shares: 1.06e10, turnover: 0.4, pe: 34, pb: 7 },
  GOOGL: { name: '谷歌-A', listDate: '2004-08-19', start: 39, end: 280, shares: 5.8e9, turnover: 0.5, pe: 25, pb: 8 },
  META: { name: 'Meta Platforms', listDate: '2012-05-18', start: 125, end: 650, shares: 2.2e9, turnover: 0.5, pe: 27, pb: 9 },
  TSLA: { name: '特斯拉', listDate: '2010-06-29', start: 15, end: 400, shares: 3.2e9, turnover: 2.5, pe: 180, pb: 15 },
  NFLX: { name: '奈飞', listDate: '2002-05-23', start: 10, end: 110, shares: 4.3e9, turnover: 0.8, pe: 45, pb: 18 },
  PDD: { name: '拼多多', listDate: '2018-07-26', start: 20, end: 120, shares: 1.4e9, turnover: 1.0, pe: 12, pb: 3.5 },
  JD: { name: '京东', listDate: '2014-05-22', start: 25, end: 33, shares: 1.4e9, turnover: 1.0, pe: 9, pb: 1.6 },
  BIDU: { name: '百度', listDate: '2005-08-05', start: 170, end: 120, shares: 3.5e8, turnover: 1.0, pe: 11, pb: 0.9 },
  NTES: { name: '网易', listDate: '2000-06-30', start: 55, end: 140, shares: 6.4e8, turnover: 0.4, pe: 18, pb: 4.2 },
  AMD: { name: '超威半导体', listDate: '1979-10-15', start: 7, end: 230, shares: 1.62e9, turnover: 2.5, pe: 120, pb: 5 },
  INTC: { name: '英特尔', listDate: '1980-03-17', start: 35, end: 38, shares: 4.4e9, turnover: 1.5, pb: 1.6 },
  BABA: { name: '阿里巴巴', listDate: '2014-09-19', start: 95, end: 160, shares: 2.4e9, turnover: 0.8, pe: 17, pb: 2 },
  NIO: { name: '蔚来', listDate: '2018-09-12', start: 6, end: 6.5, shares: 2.2e9, turnover: 2.5, pb: 8 },
  JPM: { name: '摩根大通', listDate: '1980-03-17', start: 64, end: 300, shares: 2.75e9, turnover: 0.4, pe: 15, pb: 2.4 },
  KO: { name: '可口可乐', listDate: '1980-01-02', start: 43, end: 70, shares: 4.3e9, turnover: 0.3, pe: 24, pb: 10 },
  XOM: { name: '埃克森美孚', listDate: '1980-01-02', start: 88, end: 115, shares: 4.3e9, turnover: 0.4, pe: 15, pb: 1.9 },
  BRK: { name: '伯克希尔哈撒韦', listDate: '1980-03-17', start: 145, end: 490, shares: 2.15e9, turnover: 0.2, pe: 16, pb: 1.6 },
  TME: { name: '腾讯音乐', listDate: '2018-12-12', start: 13, end: 20, shares: 1.5e9, turnover: 0.8, pe: 22, pb: 3.1 },
  LI: { name: '理想汽车', listDate: '2020-07-30', start: 15, end: 20, shares: 1.0e9, turnover: 1.5, pe: 25, pb: 2.2 },
  XPEV: { name: '小鹏汽车', listDate: '2020-08-27', start: 22, end: 20, shares: 9.5e8, turnover: 2.0, pb: 3 },
  BILI: { name: '哔哩哔哩', listDate: '2018-03-28', start: 11, end: 25, shares: 4.2e8, turnover: 1.5, pe: 90, pb: 5 },
}

export const US_INDEX_LEVELS: Record<string, IndexSpec> = {
  DJI: { name: '道琼斯', listDate: '1896-05-26', start: 18500, end: 46000, sigma: 0.04, volume: 3e8, amountPx: 60 },
  IXIC: { name: '纳斯达克', listDate: '1971-02-05', start: 5200, end: 22500, sigma: 0.05, volume: 5e9, amountPx: 40 },
  SPX: { name: '标普500', listDate: '1957-03-04', start: 2180, end: 6600, sigma: 0.04, volume: 2.5e9, amountPx: 80 },
}

/** Futures products: level, monthly volatility and the main contract's daily volume (contracts). */
export const FUTURES_LEVELS: Record<string, Levels & { sigma: number; volume: number }> = {
  RB: { start: 2400, end: 3100, sigma: 0.07, volume: 1.5e6 },
  CU: { start: 37000, end: 86000, sigma: 0.06, volume: 1e5 },
  AL: { start: 12000, end: 21000, sigma: 0.05, volume: 2e5 },
  AU: { start: 280, end: 930, sigma: 0.05, volume: 2e5 },
  AG: { start: 4200, end: 11000, sigma: 0.07, volume: 8e5 },
  RU: { start: 12000, end: 15000, sigma: 0.08, volume: 3e5 },
  M: { start: 3000, end: 2900, sigma: 0.06, volume: 1e6 },
  I: { start: 420, end: 780, sigma: 0.09, volume: 5e5 },
  Y: { start: 6000, end: 8200, sigma: 0.06, volume: 4e5 },
  P: { start: 5200, end: 8800, sigma: 0.07, volume: 5e5 },
  SR: { start: 5800, end: 5500, sigma: 0.05, volume: 3e5 },
  CF: { start: 14000, end: 13500, sigma: 0.05, volume: 3e5 },
  TA: { start: 4800, end: 4700, sigma: 0.07, volume: 1e6 },
  MA: { start: 1900, end: 2300, sigma: 0.07, volume: 8e5 },
  IF: { start: 3300, end: 4500, sigma: 0.05, volume: 1e5 },
  IC: { start: 6300, end: 7000, sigma: 0.06, volume: 1e5 },
  IH: { start: 2200, end: 2950, sigma: 0.05, volume: 6e4 },
  IM: { start: 6500, end: 7200, sigma: 0.07, volume: 1.5e5 },
  SC: { start: 300, end: 480, sigma: 0.09, volume: 1.5e5 },
  SI: { start: 13000, end: 9000, sigma: 0.08, volume: 3e5 },
  LC: { start: 120000, end: 80000, sigma: 0.12, volume: 3e5 },
}

/** Forex pairs: level and monthly volatility. */
export const FOREX_LEVELS: Record<string, Levels & { sigma: number }> = {
  USDCNH: { start: 6.65, end: 7.12, sigma: 0.012 },
  EURUSD: { start: 1.12, end: 1.16, sigma: 0.02 },
  USDJPY: { start: 102, end: 154, sigma: 0.022 },
  GBPUSD: { start: 1.31, end: 1.31, sigma: 0.02 },
  AUDUSD: { start: 0.76, end: 0.65, sigma: 0.022 },
  USDCHF: { start: 0.97, end: 0.8, sigma: 0.02 },
  USDCAD: { start: 1.3, end: 1.4, sigma: 0.015 },
}
