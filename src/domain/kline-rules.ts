import { queryIssue, type Planned, type QueryIssue } from './query-issue'
import type { Instrument, InstrumentKind } from './instrument'
import { isMinutePeriod, type Period } from './period'
import { parseSymbol, splitCodes, SymbolError } from './symbols'

/** The limits of /v1/kline (docs/api-guide.md, docs/access.md). */
export const KLINE_LIMITS = {
  maxCount: 1212,
  defaultCount: 30,
  defaultRangeCount: 1212,
  maxCells: 60_000,
  /**
   * No tier caps the symbols by itself, but every symbol costs at least one upstream request and a
   * Worker may make at most a few thousand, so one call takes at most this many symbols.
   */
  maxSymbols: 1000,
} as const

/** Periods each kind supports (docs/api-guide.md, /v1/kline). */
const PERIODS_BY_KIND: Record<InstrumentKind, 'all' | readonly Period[]> = {
  stock: 'all', index: 'all', etf: 'all', bond: 'all', sector: 'all', hk: 'all', us: 'all',
  'us-index': ['day'],
  future: ['day', 'week', 'month'],
  forex: ['day', 'week', 'month'],
}

/** Kinds that take count only, never a date range (start/end not for HK, US, futures, forex). */
const NO_RANGE_KINDS: ReadonlySet<InstrumentKind> = new Set(['hk', 'us', 'us-index', 'future', 'forex'])

const WHY_PERIOD: Partial<Record<InstrumentKind, string>> = {
  'us-index': 'US indexes support only day',
  future: 'futures support only day, week and month',
  forex: 'forex supports only day, week and month',
}

export interface KlineQuery {
  code: string
  period: Period
  count?: number
  start?: string
  end?: string
}

/** Per-caller caps: anonymous callers get at most 5 symbols and 250 bars a call (docs/access.md). */
export interface CallerCaps {
  maxSymbols: number
  maxCount: number
  /** Named in the message so the caller knows why the cap is lower than the documented one. */
  who?: string
}

export const KEYED_CAPS: CallerCaps = { maxSymbols: KLINE_LIMITS.maxSymbols, maxCount: KLINE_LIMITS.maxCount }

export interface KlinePlan {
  instruments: Instrument[]
  period: Period
  count: number
  start?: string
  end?: string
}

/** Parses the comma-separated `code` parameter; each bad code is one 422 issue. */
export function parseCodes(code: string, issues: QueryIssue[], caps: CallerCaps = KEYED_CAPS): Instrument[] {
  const parts = splitCodes(code)
  if (parts.length === 0) issues.push(queryIssue('code', 'at least one code is required, e.g. sh600519', code))
  if (parts.length > caps.maxSymbols) {
    issues.push(queryIssue('code', `${caps.who ?? 'a call'} may request at most ${caps.maxSymbols} symbols, got ${parts.length}`, code))
  }
  const out: Instrument[] = []
  for (const p of parts) {
    try {
      out.push(parseSymbol(p))
    } catch (e) {
      if (!(e instanceof SymbolError)) throw e
      issues.push(queryIssue('code', e.message, p))
    }
  }
  return out
}

/**
 * Applies /v1/kline's rules (docs/api-guide.md) to an already type-checked query and returns what to fetch,
 * or every issue naming an offending field.
 */
export function planKline(q: KlineQuery, caps: CallerCaps = KEYED_CAPS): Planned<KlinePlan> {
  const issues: QueryIssue[] = []
  const instruments = parseCodes(q.code, issues, caps)
  const minute = isMinutePeriod(q.period)
  const hasRange = q.start !== undefined || q.end !== undefined

  if (q.start !== undefined && q.end === undefined) issues.push(queryIssue('end', 'end is required when start is given (they go together)', null, 'missing'))
  if (q.end !== undefined && q.start === undefined) issues.push(queryIssue('start', 'start is required when end is given (they go together)', null, 'missing'))
  if (q.start && q.end && q.start > q.end) issues.push(queryIssue('start', `start ${q.start} is after end ${q.end}`, q.start))
  if (hasRange && q.period !== 'day' && !minute) {
    issues.push(queryIssue('start', `a date range is only for day and minute periods; ${q.period} bars use count`, q.start ?? q.end))
  }

  for (const inst of instruments) {
    const allowed = PERIODS_BY_KIND[inst.kind]
    if (allowed !== 'all' && !allowed.includes(q.period)) {
      issues.push(queryIssue('period', `${inst.code}: ${WHY_PERIOD[inst.kind]}`, q.period, 'enum'))
    } else if (minute && inst.prefix === 'bj') {
      issues.push(queryIssue('period', `${inst.code}: minute bars are not available for Beijing exchange codes`, q.period, 'enum'))
    }
    if (hasRange && NO_RANGE_KINDS.has(inst.kind)) {
      issues.push(queryIssue('start', `${inst.code}: a date range is not supported for HK, US, futures and forex; use count`, q.start ?? q.end))
    }
  }

  if (q.count !== undefined && q.count > caps.maxCount) {
    issues.push(queryIssue('count', `${caps.who ?? 'a call'} may request at most ${caps.maxCount} bars per symbol`, q.count, 'less_than_equal'))
  }
  const count = Math.min(q.count ?? (hasRange ? KLINE_LIMITS.defaultRangeCount : KLINE_LIMITS.defaultCount), caps.maxCount)
  if (instruments.length * count > KLINE_LIMITS.maxCells) {
    issues.push(
      queryIssue(
        'count',
        `symbols × count must not exceed ${KLINE_LIMITS.maxCells}: ${instruments.length} × ${count} = ${instruments.length * count}` +
          (q.count === undefined ? ' (count defaulted; pass a smaller count)' : ''),
        q.count ?? null,
        'less_than_equal'
      )
    )
  }

  if (issues.length) return { ok: false, issues }
  return { ok: true, plan: { instruments, period: q.period, count, start: q.start, end: q.end } }
}
