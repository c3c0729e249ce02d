// The catalogue's coverage, for `npm run captures` (src/data/upstreams/README.md).
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const ROOT = new URL('../..', import.meta.url).pathname
const DIR = join(ROOT, 'src/data/upstreams')

/** Every catalogue file's endpoints, each tagged with its family (the file's name). */
export function readCatalogue(dir = DIR) {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .flatMap((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')).map((e) => ({ ...e, family: f.slice(0, -5) })))
}

/** Counts, the uncaptured list, and what does not hold (a fixture missing, an entry with neither). */
export function coverage(endpoints, root = ROOT) {
  const problems = []
  const seen = new Set()
  for (const e of endpoints) {
    if (seen.has(e.id)) problems.push(`${e.id}: listed twice`)
    seen.add(e.id)
    for (const c of e.captures) if (!existsSync(join(root, c.file))) problems.push(`${e.id}: ${c.file} is not on disk`)
    if (!e.captures.length && !e.searched) problems.push(`${e.id}: neither a capture nor what was searched`)
  }
  const captured = endpoints.filter((e) => e.captures.length)
  return { endpoints, captured, uncaptured: endpoints.filter((e) => !e.captures.length), problems }
}

const hoursOf = (e) => [...new Set(e.captures.map((c) => c.hour))].join(', ')

/** The report as text: one line an endpoint, then the uncaptured list and the problems. */
export function formatCoverage({ endpoints, captured, uncaptured, problems }) {
  const width = Math.max(8, ...endpoints.map((e) => e.id.length))
  const lines = [`${'endpoint'.padEnd(width)}  captures  hours`]
  for (const e of endpoints) lines.push(`${e.id.padEnd(width)}  ${String(e.captures.length).padStart(8)}  ${hoursOf(e) || '-'}`)
  lines.push('', `${endpoints.length} endpoints: ${captured.length} with a real capture, ${uncaptured.length} without.`)
  if (uncaptured.length) {
    lines.push('', 'No capture found:')
    for (const e of uncaptured) lines.push(`- ${e.id} (${e.url}${e.report ? ` ${e.report}` : ''}): ${e.searched ?? 'not searched'}`)
  }
  if (problems.length) lines.push('', 'Problems:', ...problems.map((p) => `- ${p}`))
  return lines.join('\n') + '\n'
}

const START = '<!-- captures:start (npm run captures -- --docs writes this part) -->'
const END = '<!-- captures:end -->'
/** The upstreams page of docs/, whose coverage part is written from the catalogue. */
export const UPSTREAMS_PAGE = join(ROOT, 'docs/upstreams.md')

const cell = (t) => String(t).replace(/\|/g, '\\|').replace(/\n/g, ' ')

/** The coverage as Markdown: the table of endpoints, then the ones without a capture and what was searched. */
export function coverageMarkdown({ endpoints, captured, uncaptured }) {
  const lines = [`${endpoints.length} endpoints: ${captured.length} with a real capture, ${uncaptured.length} without.`, '', '| endpoint | captures | hours | sources |', '|---|---|---|---|']
  for (const e of endpoints) {
    const sources = [...new Set(e.captures.map((c) => c.source.split(/[;(]/)[0].trim()))].slice(0, 3).join('; ')
    lines.push(`| \`${e.id}\` | ${e.captures.length} | ${hoursOf(e) || '-'} | ${cell(sources || '-')} |`)
  }
  lines.push('', '### No capture found', '')
  for (const e of uncaptured) lines.push(`- \`${e.id}\` (\`${e.url.split('?')[0]}\`${e.report ? `, \`${e.report}\`` : ''}): ${cell(e.searched ?? 'not searched')}`)
  return lines.join('\n')
}

/** The page with its coverage part replaced by `markdown`. */
export function withCoverage(page, markdown) {
  const a = page.indexOf(START)
  const b = page.indexOf(END)
  if (a < 0 || b < a) throw new Error(`the upstreams page has no ${START} … ${END} part`)
  return page.slice(0, a + START.length) + '\n' + markdown + '\n' + page.slice(b)
}

/** Rewrites the page's coverage part; true when it changed. */
export function writeCoverage(report, page = UPSTREAMS_PAGE) {
  const before = readFileSync(page, 'utf8')
  const after = withCoverage(before, coverageMarkdown(report))
  if (after !== before) writeFileSync(page, after)
  return after !== before
}
