// The HK and US screening tables (src/jobs/foreign-factors.ts) built on a running server through
// POST /__jobs/foreign-factors: by `npm start`'s first-start build and at the end of every
// backfill, so a fresh store can screen hk and us at once. `live`: a session still open gives a
// provisional table, which the after-close cron replaces.
import { formatCost, measured } from './isolate-meter.mjs'

/**
 * Builds both tables; returns one line per market. Never throws: a failure is reported as a line.
 * With a `meter` (src/cli/isolate-meter.mjs) each line says what the step cost inside workerd.
 */
export async function buildForeignTables(url, token, meter) {
  const headers = { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }
  const lines = []
  for (const market of ['hk', 'us']) {
    try {
      const [res, r] = await measured(meter, `foreign-factors ${market}`, async () => {
        const res = await fetch(`${url}/__jobs/foreign-factors`, { method: 'POST', headers, body: JSON.stringify({ market, live: true }) })
        return [res, await res.json().catch(() => ({}))]
      })
      const cost = meter ? ` · ${formatCost(meter.last)}` : ''
      if (!res.ok) lines.push(`${market} factor table: HTTP ${res.status} ${r.error ?? ''}`.trim() + cost)
      else if (r.status === 'done') lines.push(`${market} factor table of ${r.date}: ${r.rows} stocks, ${r.factors} factors${r.final ? '' : ' (session still open: provisional until the after-close run)'}${cost}`)
      else if (r.status === 'skipped') lines.push(`${market} factor table: ${r.reason}${cost}`)
      else lines.push(`${market} factor table not built: ${r.error ?? r.status}${cost}`)
    } catch (e) {
      lines.push(`${market} factor table not built: ${e.cause?.message ?? e.message}`)
    }
  }
  return lines
}
