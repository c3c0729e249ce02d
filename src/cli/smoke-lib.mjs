// The smoke run's loop and table (src/cli/smoke.mjs): pure but for the `fetch`, `ask` and `writeFile` it is given.

/**
 * Asks each endpoint once (its newest held capture) and compares. `ask` answers a held capture
 * (the emulator); without it, the live host is fetched with the capture's headers, one request at
 * a time, `gapMs` apart, each bounded by `timeoutMs`. After a host fails to answer, its other
 * endpoints are marked unreachable without asking.
 *
 * With `record`, the endpoints without a held capture are asked too, with their catalogue probe
 * (`probes`; one without a probe is listed, not asked), and every answer is written byte for byte
 * through `record.writeFile(name, bytes)`: `<endpoint id>.<ext>`, and `record.json`, which lists
 * per endpoint the request, HTTP status, content type, the Beijing instant it was taken
 * (`record.takenAt(asked)`, else `now()` as it was asked), that instant's hour class
 * (`record.hourOf(ms)`), who answered (`record.upstream`: `live` or `emulator`, so that an
 * emulator's answer is never adopted as a real one), and `probe: true` for a probe's answer.
 * @returns {Promise<Array<{ endpoint: string, status: string, detail: string }>>}
 */
export async function runSmoke({ held, probes = [], record, readFile, departures, ask, gapMs = 0, timeoutMs = 10_000, fetchImpl = fetch, sleep = (ms) => new Promise((r) => setTimeout(r, ms)), now = Date.now }) {
  const firstPerEndpoint = new Map()
  for (const h of held) if (!firstPerEndpoint.has(h.endpoint.id)) firstPerEndpoint.set(h.endpoint.id, h)
  const toAsk = [...firstPerEndpoint.values(), ...(record ? probes : [])]
  const unreachable = new Set()
  const rows = []
  const entries = []
  let asked = 0
  for (const h of toAsk) {
    const id = h.endpoint.id
    const isProbe = !('capture' in h)
    if (!h.url) {
      rows.push({ endpoint: id, status: 'not asked', detail: h.endpoint.captures.length ? 'no capture it can ask and no probe' : 'no capture and no probe' })
      entries.push({ id, request: null, status: null, note: 'no probe' })
      continue
    }
    const host = h.url.hostname
    if (unreachable.has(host)) {
      rows.push({ endpoint: id, status: 'unreachable', detail: `${host} did not answer` })
      entries.push({ id, request: h.url.href, status: null, note: 'unreachable' })
      continue
    }
    if (asked++ && gapMs) await sleep(gapMs)
    const taken = record?.takenAt ? record.takenAt(h) : now()
    let answer
    try {
      answer = ask ? await ask(h) : await fetchWithin(fetchImpl, h, timeoutMs)
    } catch (e) {
      unreachable.add(host)
      const why = `${host}: ${e?.name === 'TimeoutError' ? `no answer in ${timeoutMs} ms` : String(e?.cause?.code ?? e?.message ?? e)}`
      rows.push({ endpoint: id, status: 'unreachable', detail: why })
      entries.push({ id, request: h.url.href, status: null, note: why })
      continue
    }
    let file
    if (record) {
      const bytes = new Uint8Array(await answer.arrayBuffer())
      const contentType = answer.headers.get('content-type')
      file = `${id}.${extensionOf(bytes, contentType ?? '')}`
      await record.writeFile(file, bytes)
      entries.push({
        id,
        request: h.url.href,
        ...(h.body === undefined ? {} : { method: 'POST', body: h.body }),
        status: answer.status,
        contentType,
        taken: beijingInstant(taken),
        hour: record.hourOf(taken),
        file,
        bytes: bytes.length,
        ...(record.upstream ? { upstream: record.upstream } : {}),
        ...(isProbe ? { probe: true } : {}),
      })
      answer = new Response(bytes, { status: answer.status, headers: answer.headers })
    }
    if (isProbe) {
      rows.push({ endpoint: id, status: answer.status === 200 ? 'recorded' : `HTTP ${answer.status}`, detail: `${file} (probe)` })
      continue
    }
    const changes = await departures(h, readFile(h.capture.file), answer)
    const recorded = file ? `; recorded as ${file}` : ''
    rows.push(changes.length ? { endpoint: id, status: 'changed', detail: changes.join('; ') + recorded } : { endpoint: id, status: 'same form', detail: `as ${h.capture.file.split('/').pop()}${recorded}` })
  }
  if (record) await record.writeFile('record.json', new TextEncoder().encode(JSON.stringify(entries, null, 2) + '\n'))
  return rows
}

/** The rows as a table, with a count line; `recording` when the run asked the probes too. */
export function smokeTable(rows, against, { recording = false } = {}) {
  const w = Math.max(8, ...rows.map((r) => r.endpoint.length))
  const title = `Smoke against the ${against}: each endpoint once, compared with its newest real capture${recording ? '; those without one asked with their probe and recorded' : ''}`
  const lines = [title, '', `${'endpoint'.padEnd(w)}  ${'status'.padEnd(11)}  what changed`]
  for (const r of rows) lines.push(`${r.endpoint.padEnd(w)}  ${r.status.padEnd(11)}  ${r.detail}`)
  const count = (s) => rows.filter((r) => r.status === s).length
  const more = recording ? `, ${count('recorded')} recorded, ${rows.filter((r) => r.status.startsWith('HTTP ')).length} other HTTP status, ${count('not asked')} not asked` : ''
  lines.push('', `${rows.length} endpoints: ${count('same form')} same form, ${count('changed')} changed, ${count('unreachable')} unreachable${more}.`)
  return lines.join('\n') + '\n'
}

/** `YYYY-MM-DDTHH:MM:SS+08:00`: an instant in Beijing time. */
export function beijingInstant(ms) {
  return new Date(ms + 8 * 3_600_000).toISOString().slice(0, 19) + '+08:00'
}

/**
 * The file extension of an answer: `json` for JSON, `js` for JSONP and script lines
 * (`v_…=`, `var hq_str_…=`, `name={…}`, Sina's `=(…)`), `html` for a page, else `txt`.
 */
export function extensionOf(bytes, contentType) {
  // Sina opens some scripts with a `/*<script>…</script>*/` comment.
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 512)).replace(/^\s*\/\*[\s\S]*?\*\//, '').trimStart()
  if (/^[[{]/.test(head)) {
    try {
      JSON.parse(new TextDecoder().decode(bytes))
      return 'json'
    } catch {
      // not whole JSON: a script or text
    }
  }
  if (/^(var\s+)?([A-Za-z_$][\w$.]*)?\s*(=|\()/.test(head)) return 'js'
  if (/html/i.test(contentType) || /^<(!doctype|html)/i.test(head)) return 'html'
  return 'txt'
}

/** A fetch bounded by its own timer (AbortSignal.timeout's does not keep Node waiting for it). */
async function fetchWithin(fetchImpl, h, timeoutMs) {
  const ctl = new AbortController()
  const timer = setTimeout(() => ctl.abort(new DOMException(`no answer in ${timeoutMs} ms`, 'TimeoutError')), timeoutMs)
  try {
    const init = h.body === undefined ? {} : { method: 'POST', body: h.body }
    return await fetchImpl(h.url, { ...init, headers: h.headers, signal: ctl.signal })
  } finally {
    clearTimeout(timer)
  }
}
