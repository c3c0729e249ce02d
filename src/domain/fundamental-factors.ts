/**
 * The fundamentals and size factors of one stock on one date, point in time:
 * only reports whose notice date is on or before the date count. Pure: the jobs fetch the
 * statements of a few report periods for the whole market and call {@link fundamentalFactors}
 * per stock.
 *
 * Income and cash-flow lines are cumulative within the year (Q3 = January to September), so the
 * trailing twelve months of a line are: latest cumulative + last annual − the same period a year
 * before (the latest itself when it is an annual report).
 */
import { dayNumber } from './dates'

/** What one stock published for one report period (CNY; cumulative for income and cash flow). */
export interface PeriodFigures {
  /** Publication date `YYYY-MM-DD`: the latest notice date of the statements it carries. */
  notice: string
  revenue: number | null
  operating_cost: number | null
  parent_net_profit: number | null
  operating_net_cash: number | null
  total_assets: number | null
  total_liabilities: number | null
  /**
   * Equity attributable to the parent per share at the period end (每股净资产), CNY, as the
   * company published it: the 业绩报表's `BPS` (src/channels/eastmoney/period-performance.ts).
   * BPS, PB and ROETTM come from it ({@link fundamentalFactors}). The whole-market balance sheet
   * (RPT_DMSK_FN_BALANCE) has total equity only, no parent share, so this is the one source.
   */
  bps: number | null
  /**
   * When `bps` may first be read (`YYYY-MM-DD`; null with it): the 业绩报表 row's update date, which
   * may be later than `notice` (a row restated by a later report is dated by the restatement).
   */
  bps_notice: string | null
  /**
   * The shares that BPS is over, as the 业绩报表 implies them (attributable profit / basic EPS);
   * null when its EPS is too small to tell, or with `bps`. Compared with today's count to see
   * whether the shares changed since the period (below).
   */
  bps_shares: number | null
}

/** One stock's figures by report period (`YYYY-MM-DD` quarter end). */
export type FiguresOf = (period: string) => PeriodFigures | undefined

/** Share counts and listing of one stock, from the market list. */
export interface ShareProfile {
  totalShares: number | null
  floatShares: number | null
  listDate: string | null
}

/** The factors this module fills, in catalogue names (src/data/factors.ts). */
export const FUNDAMENTAL_FACTORS = [
  'PE_TTM', 'PE_LYR', 'PB', 'PS_TTM', 'PCF_TTM', 'PEG', 'EPS_TTM', 'BPS', 'ROETTM', 'GrossMargin', 'NetMargin',
  'DebtRatio', 'RevenueYoY', 'NetProfitYoY', 'TotalMV', 'FloatMV', 'TotalShares', 'FloatShares', 'ListDays', 'TurnoverRate',
] as const
export type FundamentalFactor = (typeof FUNDAMENTAL_FACTORS)[number]

const QUARTER_ENDS = ['03-31', '06-30', '09-30', '12-31'] as const

/** Quarter number q = year × 4 + (quarter − 1), and back. */
const quarterOf = (period: string) => +period.slice(0, 4) * 4 + QUARTER_ENDS.indexOf(period.slice(5) as (typeof QUARTER_ENDS)[number])
const periodOf = (q: number) => `${Math.floor(q / 4)}-${QUARTER_ENDS[q % 4]}`

/**
 * How many quarter ends before the date may hold a stock's latest report: an annual report may
 * come four months after its year end, when the Q3 report (three quarter ends back) is still the
 * latest; one more allows for a late filer.
 */
const CANDIDATE_QUARTERS = 4

/** The latest-report candidates of `date`: the quarter ends strictly before it, newest first. */
export function candidatePeriods(date: string): string[] {
  let q = +date.slice(0, 4) * 4 + 3
  while (periodOf(q) >= date) q--
  return Array.from({ length: CANDIDATE_QUARTERS }, (_, k) => periodOf(q - k))
}

/** The year-ago period and the last annual before it, which TTM and YoY of `period` need. */
function companions(period: string): string[] {
  const q = quarterOf(period)
  return [periodOf(q - 4), periodOf(q - (q % 4) - 1)]
}

/**
 * Every report period the factors of `date` may read, newest first: the candidates, their
 * year-ago periods and the annual reports before them. `balance` marks the periods whose balance
 * sheet is read (only a latest report's).
 */
export function periodsToFetch(date: string): Array<{ period: string; balance: boolean }> {
  const candidates = candidatePeriods(date)
  const all = new Set(candidates)
  for (const p of candidates) for (const c of companions(p)) all.add(c)
  return [...all].sort().reverse().map((period) => ({ period, balance: candidates.includes(period) }))
}

const published = (f: PeriodFigures | undefined, date: string): f is PeriodFigures => f !== undefined && f.notice <= date

/** The newest candidate period published by `date`, or undefined. */
export function latestPublished(figures: FiguresOf, date: string): string | undefined {
  return candidatePeriods(date).find((p) => published(figures(p), date))
}

type Line = 'revenue' | 'operating_cost' | 'parent_net_profit' | 'operating_net_cash'

/** Line of a period as known on `date`: null when the period or the line is not published. */
function lineAt(figures: FiguresOf, period: string, line: Line | 'total_assets' | 'total_liabilities', date: string): number | null {
  const f = figures(period)
  return published(f, date) ? f[line] : null
}

/** The period's BPS as known on `date`: null unless both the period and its BPS row are published by then. */
function bpsAt(figures: FiguresOf, period: string, date: string): number | null {
  const f = figures(period)
  if (!published(f, date)) return null
  // `?? null`: figures kept before BPS was a line (src/jobs/fundamental-factors.ts keptStatements) lack both.
  const from = f.bps_notice ?? null
  return from !== null && from <= date ? (f.bps ?? null) : null
}

/**
 * Whether BPS is over about today's share count: the report's share basis within 5 % of `total`,
 * plus what a 2-decimal EPS may add (older rows print 2). True when either is unknown: then BPS
 * is taken as published. A bonus or transfer issue since the period (10送1 and up) fails it.
 */
function sameShareBasis(figures: FiguresOf, period: string, total: number | null): boolean {
  const f = figures(period)
  const basis = f?.bps_shares ?? null
  const profit = f?.parent_net_profit ?? null
  if (basis === null || total === null || total <= 0 || profit === null || profit === 0) return true
  return Math.abs(basis / total - 1) <= 0.05 + 0.005 / Math.abs(profit / basis)
}

/** Trailing twelve months of a cumulative line, as published on `date`, from the latest period. */
export function ttm(figures: FiguresOf, latest: string, line: Line, date: string): number | null {
  const q = quarterOf(latest)
  const now = lineAt(figures, latest, line, date)
  if (now === null || q % 4 === 3) return now
  const [yearAgo, annual] = companions(latest)
  const a = lineAt(figures, annual, line, date)
  const b = lineAt(figures, yearAgo, line, date)
  return a === null || b === null ? null : now + a - b
}

/** Growth of a cumulative line over the same period a year before, percent; null when that is 0 or unknown. */
export function yoy(figures: FiguresOf, latest: string, line: Line, date: string): number | null {
  const now = lineAt(figures, latest, line, date)
  const before = lineAt(figures, companions(latest)[0], line, date)
  return now === null || before === null || before === 0 ? null : ((now - before) / Math.abs(before)) * 100
}

/** a ÷ b, null when either is unknown or b is 0. */
const div = (a: number | null, b: number | null) => (a === null || b === null || b === 0 ? null : a / b)
/** A multiple that only means something when both sides are positive (PE of a loss-maker is null). */
const multiple = (a: number | null, b: number | null) => (a === null || b === null || a <= 0 || b <= 0 ? null : a / b)
const pct = (x: number | null) => (x === null ? null : x * 100)

/** The day's inputs beside the statements. */
export interface DayInputs {
  date: string
  /** Close of the date, CNY (unadjusted). */
  close: number | null
  /** Volume of the date, shares. */
  volume: number | null
  shares: ShareProfile | undefined
}

/**
 * Every {@link FUNDAMENTAL_FACTORS} value of one stock on `day.date`, unrounded; null where an
 * input is missing or the ratio has no meaning. Units as the catalogue states: market values in
 * 100 million CNY, margins and growth in percent, per-share figures in CNY.
 *
 * Book value comes per share: BPS is the latest report's 每股净资产 as published, PB = close /
 * BPS, and ROETTM = TTM attributable profit / (BPS × total shares), the parent equity the BPS
 * stands for on today's share count. Per share because that is what the report gives: it has no
 * share count of the period end, and the share profile's count is today's, so no parent equity
 * in CNY is to be had without assuming the count did not change.
 *
 * After a bonus-share or transfer issue (送股, 转增) whose ex-date falls after the period end, the
 * count grows by (1 + r) and the price falls by about as much, while the report's BPS stays per
 * old share until the next report: close / BPS would read low by 1 / (1 + r) and ROETTM too (BPS ×
 * the new count overstates the equity by 1 + r); after 10转10, half the true values for up to a
 * quarter. So PB and ROETTM are null while the report's own share basis (profit / EPS) is not
 * today's count ({@link sameShareBasis}); BPS stays, as published, per share of the period end.
 * Where the basis is unknown (EPS under 0.1 CNY) the skew is not caught. EPS_TTM and PE_TTM are
 * not affected (CNY over today's count). A placement or a buy-back after the period end skews
 * ROETTM less: BPS × the new count misses only the difference between the price paid for the new
 * (or old) shares and the book.
 */
export function fundamentalFactors(figures: FiguresOf, day: DayInputs): Record<FundamentalFactor, number | null> {
  const { date, close } = day
  const total = day.shares?.totalShares ?? null
  const float = day.shares?.floatShares ?? null
  const listDate = day.shares?.listDate ?? null
  const latest = latestPublished(figures, date)
  const lastAnnual = periodsToFetch(date).map((p) => p.period).find((p) => p.endsWith('12-31') && published(figures(p), date))

  const profitTtm = latest ? ttm(figures, latest, 'parent_net_profit', date) : null
  const revenueTtm = latest ? ttm(figures, latest, 'revenue', date) : null
  const cashTtm = latest ? ttm(figures, latest, 'operating_net_cash', date) : null
  const bps = latest ? bpsAt(figures, latest, date) : null
  const revenue = latest ? lineAt(figures, latest, 'revenue', date) : null
  const cost = latest ? lineAt(figures, latest, 'operating_cost', date) : null
  const assets = latest ? lineAt(figures, latest, 'total_assets', date) : null
  const liabilities = latest ? lineAt(figures, latest, 'total_liabilities', date) : null
  const profitYoY = latest ? yoy(figures, latest, 'parent_net_profit', date) : null

  const eps = div(profitTtm, total)
  const epsAnnual = lastAnnual ? div(lineAt(figures, lastAnnual, 'parent_net_profit', date), total) : null
  // Book value on today's share count, or none when the report's shares were others (above).
  const sameShares = latest ? sameShareBasis(figures, latest, total) : true
  const equity = bps !== null && total !== null && sameShares ? bps * total : null
  const cap = close !== null && total !== null ? close * total : null
  const peTtm = multiple(close, eps)
  return {
    PE_TTM: peTtm,
    PE_LYR: multiple(close, epsAnnual),
    PB: sameShares ? multiple(close, bps) : null,
    PS_TTM: multiple(cap, revenueTtm),
    PCF_TTM: multiple(cap, cashTtm),
    PEG: multiple(peTtm, profitYoY),
    EPS_TTM: eps,
    BPS: bps,
    ROETTM: equity !== null && equity > 0 ? pct(div(profitTtm, equity)) : null,
    GrossMargin: revenue !== null && cost !== null && revenue > 0 ? pct((revenue - cost) / revenue) : null,
    NetMargin: revenueTtm !== null && revenueTtm > 0 ? pct(div(profitTtm, revenueTtm)) : null,
    DebtRatio: pct(div(liabilities, assets)),
    RevenueYoY: latest ? yoy(figures, latest, 'revenue', date) : null,
    NetProfitYoY: profitYoY,
    TotalMV: cap === null ? null : cap / 1e8,
    FloatMV: close !== null && float !== null ? (close * float) / 1e8 : null,
    TotalShares: total,
    FloatShares: float,
    ListDays: listDate !== null && listDate <= date ? dayNumber(date) - dayNumber(listDate) : null,
    TurnoverRate: day.volume !== null && float !== null && float > 0 ? (day.volume / float) * 100 : null,
  }
}
