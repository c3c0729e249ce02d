/**
 * The headline indexes of /v1/market-overview (summary, interval): one per board family. Order is
 * display order.
 */
export const OVERVIEW_INDEXES = [
  'sh000001', // SSE Composite 上证指数
  'sz399001', // SZSE Component 深证成指
  'sz399006', // ChiNext 创业板指
  'sh000688', // STAR 50 科创50
  'bj899050', // BSE 50 北证50
] as const

/** Sessions back for the interval changes (a week, a month, a quarter, a year of sessions). */
export const INTERVAL_SESSIONS = [5, 20, 60, 250] as const
