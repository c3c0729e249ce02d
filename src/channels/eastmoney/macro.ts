/**
 * Macro series from the datacenter (upstreams.md §5.12), as the catalogue (src/data/macro-catalogue.ts)
 * names them: one request per report (China's tables carry several series as columns) or per
 * indicator (country tables), newest first, one page of `count` rows.
 */
import { isValidDate } from '../../domain/dates'
import type { MacroFrequency, MacroSeriesSpec } from '../../data/macro-catalogue'
import { malformed } from '../errors'
import { fetchText } from '../http'
import type { ChannelContext } from '../types'
import { optNum } from '../validate'
import { datacenterUrl, readDatacenter } from './datacenter'
import type { JsonObject } from './envelope'
import { CHANNEL } from './wire'

/** One observation. */
export interface MacroPoint {
  /** `YYYY-MM` (monthly), `YYYY-Qn` (quarterly) or `YYYY-MM-DD` (daily). */
  period: string
  value: number
  /** The day it was published, `YYYY-MM-DD`; null where the report does not say (China's monthly tables). */
  release: string | null
}

const DATE = /^(\d{4}-\d{2}-\d{2})( \d{2}:\d{2}:\d{2})?$/

function dateOf(row: JsonObject, col: string): string | null {
  const raw = row[col]
  if (raw === null || raw === undefined || raw === '') return null
  const m = typeof raw === 'string' ? DATE.exec(raw) : null
  if (!m || !isValidDate(m[1])) throw malformed(CHANNEL, `${col} is not a date: ${JSON.stringify(raw)}`)
  return m[1]
}

/** The period a date stands for at a frequency. */
export function periodOf(date: string, frequency: MacroFrequency): string {
  if (frequency === 'daily') return date
  if (frequency === 'monthly') return date.slice(0, 7)
  return `${date.slice(0, 4)}-Q${Math.ceil(Number(date.slice(5, 7)) / 3)}`
}

/** Requests that serve `specs`: one per report, or per indicator of a country report. */
export function groupOf(spec: MacroSeriesSpec): string {
  return spec.source.kind === 'report' ? spec.source.report : `${spec.source.report}#${spec.source.indicator}`
}

function url(spec: MacroSeriesSpec, count: number): string {
  const s = spec.source
  if (s.kind === 'report') return datacenterUrl({ report: s.report, filter: '', sortColumns: s.dateColumn, sortTypes: '-1', page: 1, pageSize: count })
  return datacenterUrl({ report: s.report, filter: `(INDICATOR_ID="${s.indicator}")`, sortColumns: 'REPORT_DATE', sortTypes: '-1', page: 1, pageSize: count })
}

/** Newest first, one point per period: a repeated period is `malformed`. */
function ordered(name: string, points: MacroPoint[]): MacroPoint[] {
  points.sort((a, b) => (a.period < b.period ? 1 : a.period > b.period ? -1 : 0))
  for (let i = 1; i < points.length; i++) if (points[i].period === points[i - 1].period) throw malformed(CHANNEL, `${name}: period ${points[i].period} twice`)
  return points
}

/** The series of `specs` (all of one group) from one answer's rows. */
export function readMacroRows(specs: MacroSeriesSpec[], rows: JsonObject[]): Map<string, MacroPoint[]> {
  const out = new Map<string, MacroPoint[]>(specs.map((s) => [s.name, []]))
  for (const row of rows) {
    for (const spec of specs) {
      const s = spec.source
      if (s.kind === 'report') {
        const date = dateOf(row, s.dateColumn)
        if (!date) throw malformed(CHANNEL, `${s.report} row has no ${s.dateColumn}`)
        const value = optNum(CHANNEL, row[s.column], `${s.report}.${s.column} of ${date}`)
        if (value !== null) out.get(spec.name)!.push({ period: periodOf(date, spec.frequency), value, release: s.released ? date : null })
      } else {
        if (row.INDICATOR_ID !== s.indicator) throw malformed(CHANNEL, `${s.report} answered indicator ${JSON.stringify(row.INDICATOR_ID)} for ${s.indicator}`)
        const title = typeof row.INDICATOR_NAME === 'string' ? row.INDICATOR_NAME : ''
        if (!s.keywords.some((k) => title.includes(k))) throw malformed(CHANNEL, `${s.indicator} is now ${JSON.stringify(title)}, not the ${spec.name} series`)
        const date = dateOf(row, 'REPORT_DATE')
        if (!date) throw malformed(CHANNEL, `${s.indicator} row has no REPORT_DATE`)
        const release = dateOf(row, 'PUBLISH_DATE')
        if (release !== null && release < date) throw malformed(CHANNEL, `${s.indicator} ${date} published ${release}, before its period`)
        // A row without a value is a release announced but not out yet.
        const value = optNum(CHANNEL, row.VALUE, `${s.indicator} VALUE of ${date}`)
        if (value !== null) out.get(spec.name)!.push({ period: periodOf(date, spec.frequency), value, release })
      }
    }
  }
  for (const [name, points] of out) ordered(name, points)
  return out
}

/** The newest `count` rows of the group of `specs`, read into their series. */
export async function fetchMacroGroup(ctx: ChannelContext, specs: MacroSeriesSpec[], count: number): Promise<Map<string, MacroPoint[]>> {
  const page = readDatacenter(await fetchText(ctx, CHANNEL, url(specs[0], count)))
  return readMacroRows(specs, page?.data ?? [])
}
