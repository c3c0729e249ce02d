// The smoke run's loop and table (src/cli/smoke.mjs): pure but for the `fetch` and `ask` it is given.

/**
 * Asks each endpoint once (its newest held capture) and compares. `ask` answers a held capture
 * (the emulator); without it, the live host is fetched with the capture's headers, one request at
 * a time, `gapMs` apart, each bounded by `timeoutMs`. After a host fails to answer, its other
 * endpoints are marked unreachable without asking.
 * @returns {Promise<Array<{ endpoint: string, status: string, detail: string }>>}
 */
export async function runSmoke({ held, readFile, departures, ask, gapMs = 0, timeoutMs = 10_000, fetchImpl = fetch, sleep = (ms) => new Promise((r) => setTimeout(r, ms)) }) {
  const firstPerEndpoint = new Map()
  for (const h of held) if (!firstPerEndpoint.has(h.endpoint.id)) firstPerEndpoint.set(h.endpoint.id, h)
  const unreachable = new Set()
  const rows = []
  let asked = 0
  for (const [id, h] of firstPerEndpoint) {
    const host = h.url.hostname
    if (unreachable.has(host)) {
      rows.push({ endpoint: id, status: 'unreachable', detail: `${host} did not answer` })
      continue
    }
    if (asked++ && gapMs) await sleep(gapMs)
    let answer
    try {
      answer = ask ? await ask(h) : await fetchWithin(fetchImpl, h, timeoutMs)
    } catch (e) {
      unreachable.add(host)
      rows.push({ endpoint: id, status: 'unreachable', detail: `${host}: ${e?.name === 'TimeoutError' ? `no answer in ${timeoutMs} ms` : String(e?.cause?.code ?? e?.message ?? e)}` })
      continue
    }
    const changes = await departures(h, readFile(h.capture.file), answer)
    rows.push(changes.length ? { endpoint: id, status: 'changed', detail: changes.join('; ') } : { endpoint: id, status: 'same form', detail: `as ${h.capture.file.split('/').pop()}` })
  }
  return rows
}

/** The rows as a table, with a count line. */
export function smokeTable(rows, against) {
  const w = Math.max(8, ...rows.map((r) => r.endpoint.length))
  const lines = [`Smoke against the ${against}: each endpoint once, compared with its newest real capture`, '', `${'endpoint'.padEnd(w)}  ${'status'.padEnd(11)}  what changed`]
  for (const r of rows) lines.push(`${r.endpoint.padEnd(w)}  ${r.status.padEnd(11)}  ${r.detail}`)
  const count = (s) => rows.filter((r) => r.status === s).length
  lines.push('', `${rows.length} endpoints: ${count('same form')} same form, ${count('changed')} changed, ${count('unreachable')} unreachable.`)
  return lines.join('\n') + '\n'
}

/** A fetch bounded by its own timer (AbortSignal.timeout's does not keep Node waiting for it). */
async function fetchWithin(fetchImpl, h, timeoutMs) {
  const ctl = new AbortController()
  const timer = setTimeout(() => ctl.abort(new DOMException(`no answer in ${timeoutMs} ms`, 'TimeoutError')), timeoutMs)
  try {
    return await fetchImpl(h.url, { headers: h.headers, signal: ctl.signal })
  } finally {
    clearTimeout(timer)
  }
}
