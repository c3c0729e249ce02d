/**
 * A small deterministic {@link MarketModel} for the wire-layer tests: a handful of instruments of
 * every kind on the SSE calendar, closed-form prices, two corporate actions, one suspended stock.
 * Not the emulator's market (src/emulator/market); just enough to pin wire shapes and units.
 */
import { addDays, beijing, dayNumber } from '../../domain/dates'
import { isTradingDay, previousTradingDay, tradingDaysBetween } from '../../domain/trading-calendar'
import type { Book, CorporateAction, EmuInstrument, LiveQuote, MarketModel, RawBar } from '../market/types'
import { round } from './format'

type Spec = Omit<EmuInstrument, 'listDate' | 'currency' | 'floatShares' | 'totalShares'> & Partial<EmuInstrument> & { base: number }

const SPECS: Spec[] = [
  { code: 'sh600519', prefix: 'sh', symbol: '600519', kind: 'stock', board: 'sh-main', name: '贵州茅台', decimals: 2, limit: 0.1, secid: '1.600519', base: 1500, floatShares: 1_256_197_800, totalShares: 1_256_197_800 },
  { code: 'sz000001', prefix: 'sz', symbol: '000001', kind: 'stock', board: 'sz-main', name: '平安银行', decimals: 2, limit: 0.1, secid: '0.000001', base: 11, floatShares: 19_405_600_000, totalShares: 19_405_900_000 },
  { code: 'sz000002', prefix: 'sz', symbol: '000002', kind: 'stock', board: 'sz-main', name: '万科Ａ', decimals: 2, limit: 0.1, secid: '0.000002', base: 8, floatShares: 9_716_000_000, totalShares: 11_930_000_000 },
  { code: 'bj830799', prefix: 'bj', symbol: '830799', kind: 'stock', board: 'bj', name: '艾融软件', decimals: 2, limit: 0.3, secid: '0.830799', base: 30, floatShares: 60_000_000, totalShares: 211_000_000 },
  { code: 'sh000001', prefix: 'sh', symbol: '000001', kind: 'index', name: '上证指数', decimals: 2, limit: null, secid: '1.000001', base: 3200 },
  { code: 'sh510300', prefix: 'sh', symbol: '510300', kind: 'etf', name: '沪深300ETF', decimals: 3, limit: 0.1, secid: '1.510300', base: 3.9, floatShares: 30_000_000_000, totalShares: 30_000_000_000 },
  { code: 'sh113050', prefix: 'sh', symbol: '113050', kind: 'bond', name: '南银转债', decimals: 3, limit: 0.2, secid: '1.113050', base: 130 },
  { code: 'hk00700', prefix: 'hk', symbol: '00700', kind: 'hk', name: '腾讯控股', decimals: 2, limit: null, secid: '116.00700', base: 380, currency: 'HKD', floatShares: 9_500_000_000, totalShares: 9_500_000_000 },
  { code: 'usAAPL', prefix: 'us', symbol: 'AAPL', kind: 'us', name: '苹果', decimals: 2, limit: null, secid: '105.AAPL', base: 240, currency: 'USD', floatShares: 15_115_823_000, totalShares: 15_115_823_000 },
  { code: 'usBABA', prefix: 'us', symbol: 'BABA', kind: 'us', name: '阿里巴巴', decimals: 2, limit: null, secid: '106.BABA', base: 85, currency: 'USD', floatShares: 2_400_000_000, totalShares: 2_400_000_000 },
  { code: 'us.DJI', prefix: 'us', symbol: 'DJI', kind: 'us-index', name: '道琼斯', decimals: 2, limit: null, secid: '100.DJIA', base: 42000, currency: 'USD' },
  { code: 'pt0477', prefix: 'pt', symbol: '0477', kind: 'sector', name: '酿酒行业', decimals: 2, limit: null, secid: '90.BK0477', base: 1200 },
  { code: 'fuRB2501', prefix: 'fu', symbol: 'RB2501', kind: 'future', name: '螺纹钢2501', decimals: 2, limit: 0.07, secid: '113.rb2501', base: 3500 },
  { code: 'fuSR2501', prefix: 'fu', symbol: 'SR2501', kind: 'future', name: '白糖2501', decimals: 2, limit: 0.07, secid: '115.SR501', base: 6000 },
  { code: 'fuIF2501', prefix: 'fu', symbol: 'IF2501', kind: 'future', name: '沪深300股指2501', decimals: 2, limit: 0.1, secid: '8.IF2501', base: 3900 },
  { code: 'fxUSDCNH', prefix: 'fx', symbol: 'USDCNH', kind: 'forex', name: '美元兑离岸人民币', decimals: 4, limit: null, secid: '133.USDCNH', base: 7.2 },
]

/** The fake's universe, in a stable order. */
const FAKE_INSTRUMENTS: readonly EmuInstrument[] = SPECS.map(({ base: _base, ...s }) => ({
  listDate: '2023-01-03',
  currency: 'CNY',
  floatShares: null,
  totalShares: null,
  ...s,
}))

const BASE = new Map(SPECS.map((s) => [s.code, s.base]))

/** Corporate actions of the fake: 贵州茅台 pays cash twice, 艾融软件 pays cash and bonus shares. */
const FAKE_ACTIONS: Record<string, Array<CorporateAction & { factor: number }>> = {
  sh600519: [
    { exDate: '2024-06-19', cash: 30.876, bonus: 0, factor: 0.98 },
    { exDate: '2025-06-26', cash: 27.673, bonus: 0, factor: 0.985 },
  ],
  bj830799: [{ exDate: '2024-05-20', cash: 0.5, bonus: 0.3, factor: 0.75 }],
}

/** The stock that is always suspended. */
export const SUSPENDED = 'sz000002'

const hasTurnover = (i: EmuInstrument) => i.floatShares !== null
const qfq = (i: EmuInstrument, date: string) => (FAKE_ACTIONS[i.code] ?? []).reduce((f, a) => (a.exDate > date ? f * a.factor : f), 1)

/** Raw close on a day: a slow sine around the base, stepped down by each ex-date's factor. */
function rawClose(i: EmuInstrument, date: string): number {
  const n = dayNumber(date)
  return round((BASE.get(i.code)! * (1 + 0.15 * Math.sin(n / 17))) / qfq(i, date), i.decimals)
}

function dailyBar(i: EmuInstrument, date: string): RawBar {
  const n = dayNumber(date)
  const prev = previousTradingDay(date)
  const exFactor = (FAKE_ACTIONS[i.code] ?? []).find((a) => a.exDate === date)?.factor ?? 1
  const preClose = round(rawClose(i, prev) * exFactor, i.decimals)
  const close = rawClose(i, date)
  const open = round(preClose * (1 + 0.004 * Math.cos(n)), i.decimals)
  const high = round(Math.max(open, close) * 1.01, i.decimals)
  const low = round(Math.min(open, close) * 0.99, i.decimals)
  const volume = i.kind === 'forex' ? 0 : (10_000 + (n % 13) * 1_000) * 100
  const amount = i.kind === 'forex' ? 0 : round((volume * (open + close)) / 2, 2)
  const turnover = hasTurnover(i) ? round((volume / i.floatShares!) * 100, 4) : null
  return { date, open, high, low, close, preClose, volume, amount, turnover }
}

/** A flat no-trade bar (the suspended stock's day). */
function flatBar(i: EmuInstrument, date: string): RawBar {
  const c = rawClose(i, previousTradingDay(date))
  return { date, open: c, high: c, low: c, close: c, preClose: c, volume: 0, amount: 0, turnover: hasTurnover(i) ? 0 : null }
}

/** Session minute marks (bar end times) for an A-share day at `minutes` per bar. */
function sessionEnds(minutes: number): string[] {
  const out: string[] = []
  for (const [start, end] of [[9 * 60 + 30, 11 * 60 + 30], [13 * 60, 15 * 60]]) {
    for (let t = start + minutes; t <= end; t += minutes) out.push(`${String(Math.floor(t / 60)).padStart(2, '0')}:${String(t % 60).padStart(2, '0')}`)
  }
  return out
}

function sessionOpen(now: number): { today: string; open: boolean; minute: number } {
  const b = beijing(now)
  return { today: b.date, open: isTradingDay(b.date) && b.minute >= 9 * 60 + 30, minute: b.minute }
}

/** The fake market model. */
export const fakeMarket: MarketModel = {
  instruments: () => FAKE_INSTRUMENTS,
  byCode: (code) => FAKE_INSTRUMENTS.find((i) => i.code === code),
  actions: (i) => (FAKE_ACTIONS[i.code] ?? []).map(({ exDate, cash, bonus }) => ({ exDate, cash, bonus })),
  dailyBars(i, from, to, now) {
    const s = sessionOpen(now)
    const last = s.open ? s.today : addDays(s.today, -1)
    const lo = from > i.listDate ? from : i.listDate
    const hi = to < last ? to : last
    if (lo > hi) return []
    return tradingDaysBetween(lo, hi).map((d) => (i.code === SUSPENDED && d === s.today ? flatBar(i, d) : dailyBar(i, d)))
  },
  minuteBars(i, minutes, from, to, now) {
    const s = sessionOpen(now)
    const start = this.minuteWindowStart(i, now)
    const lo = from > start ? from : start
    const hi = to < s.today ? to : s.today
    if (lo > hi) return []
    const ends = sessionEnds(minutes)
    const out: RawBar[] = []
    for (const d of tradingDaysBetween(lo, hi)) {
      const day = dailyBar(i, d)
      ends.forEach((t, k) => {
        const [h, m] = t.split(':').map(Number)
        if (d === s.today && h * 60 + m > s.minute) return
        const w = (k + 1) / ends.length
        const preClose = out.length ? out[out.length - 1].close : day.preClose
        const close = round(day.open + (day.close - day.open) * w, i.decimals)
        const open = preClose
        const volume = Math.round(day.volume / ends.length / 100) * 100
        out.push({ date: `${d} ${t}`, open, high: Math.max(open, close), low: Math.min(open, close), close, preClose, volume, amount: round(volume * close, 2), turnover: day.turnover === null ? null : round(day.turnover / ends.length, 4) })
      })
    }
    return out
  },
  minuteWindowStart(_i, now) {
    const d = beijing(now).date
    const m = Number(d.slice(5, 7))
    return m === 1 ? `${Number(d.slice(0, 4)) - 1}-12-01` : `${d.slice(0, 4)}-${String(m - 1).padStart(2, '0')}-01`
  },
  qfqFactor: qfq,
  hfqFactor: (i, date) => (FAKE_ACTIONS[i.code] ?? []).reduce((f, a) => (a.exDate <= date ? f / a.factor : f), 1),
  live(i, now): LiveQuote {
    const s = sessionOpen(now)
    const traded = s.open ? s.today : previousTradingDay(s.today)
    if (i.code === SUSPENDED) return { instrument: i, date: s.today, time: '15:00:00', state: 'suspended', bar: flatBar(i, s.today), book: emptyBook(), auction: null }
    const bar = dailyBar(i, traded)
    const t = beijing(now).time
    // Before the open (and on closed days): the previous session's final line with its closing book.
    const trading = s.open && t < '15:00:00'
    return { instrument: i, date: traded, time: trading ? t : '15:00:00', state: trading ? 'trading' : 'closed', bar, book: book(i, bar.close), auction: null }
  },
  // One and a half days' volume, as the wire used to print it; no main continuous contracts here.
  openInterest: (i, date) => (i.kind === 'future' ? Math.round(dailyBar(i, date).volume * 1.5) : 0),
  mainContract: (i) => i,
}

const emptyBook = (): Book => ({ bids: Array.from({ length: 5 }, () => [0, 0]), asks: Array.from({ length: 5 }, () => [0, 0]) })

function book(i: EmuInstrument, price: number): Book {
  const tick = 10 ** -i.decimals
  const level = (k: number, sign: number): [number, number] => [round(price + sign * k * tick, i.decimals), (k + 2) * 100]
  return { bids: [0, 1, 2, 3, 4].map((k) => level(k, -1)), asks: [1, 2, 3, 4, 5].map((k) => level(k, 1)) }
}
