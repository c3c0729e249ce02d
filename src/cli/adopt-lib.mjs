// Adopting recorded answers as held captures: `npm run captures -- --adopt DIR` takes what
// `npm run smoke -- --live --record DIR` wrote and does the first three steps of docs/upstreams.md
// "Recording the missing answers" for each answer: the fixture file, its SOURCE.md entry, and the
// catalogue's capture entry (with `searched` cleared). The parser test stays a person's work.
import { basename, dirname, extname, join } from 'node:path'

/**
 * The fixture folder of an endpoint: the folder most of its host's held captures are in, else
 * `test/fixtures/<the id's first part>` (`ths.hot-list` → `test/fixtures/ths`).
 */
export function fixtureDir(endpoint, endpoints) {
  const host = hostOf(endpoint.url)
  const counts = new Map()
  for (const e of endpoints) {
    if (hostOf(e.url) !== host) continue
    for (const c of e.captures) counts.set(dirname(c.file), (counts.get(dirname(c.file)) ?? 0) + 1)
  }
  const best = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]
  return best ? best[0] : `test/fixtures/${endpoint.id.split('.')[0]}`
}

const hostOf = (url) => new URL(url).hostname

/**
 * What to adopt from a recording's `record.json` entries: each answer the live hosts gave with
 * HTTP 200 to a probe, that is for an endpoint without a held capture. The rest
 * is listed with why: an emulator's answer is never a capture, and an endpoint already held is
 * compared by the smoke run, not recorded again.
 * @param {Array<object>} entries record.json
 * @param {Array<object>} endpoints the catalogue, each with its `family` (readCatalogue)
 * @param {(file: string) => boolean} exists whether a repository file is there already
 */
export function planAdoption(entries, endpoints, exists) {
  const byId = new Map(endpoints.map((e) => [e.id, e]))
  const adopt = []
  const skip = []
  for (const entry of entries) {
    const endpoint = byId.get(entry.id)
    const why = !endpoint
      ? 'not in the catalogue'
      : entry.upstream !== 'live'
        ? `not a live answer (${entry.upstream ?? 'recorded before runs said who answered'}): record it with --live`
        : entry.status !== 200
          ? entry.status === null ? (entry.note ?? 'not asked') : `HTTP ${entry.status}`
          : !entry.probe
            ? 'has a held capture (the smoke run compares it)'
            : undefined
    if (why) {
      skip.push({ id: entry.id, why })
      continue
    }
    const date = entry.taken.slice(0, 10)
    const file = `${fixtureDir(endpoint, endpoints)}/${endpoint.id.split('.').slice(1).join('.')}-recorded-${date}${extname(entry.file)}`
    if (exists(file)) {
      skip.push({ id: entry.id, why: `${file} is there already` })
      continue
    }
    const capture = {
      file,
      ...(endpoint.charset === 'gbk' ? { encoding: 'gbk' } : {}),
      request: entry.request,
      taken: entry.taken,
      hour: entry.hour,
      source: `recorded with npm run smoke -- --live --record on ${date} from ${hostOf(entry.request)}`,
    }
    adopt.push({ endpoint, entry, capture })
  }
  return { adopt, skip }
}

/** Where the JSON value that starts at `from` (an array or a string) ends, just past it. */
function valueEnd(text, from) {
  let depth = 0
  for (let i = from; i < text.length; i++) {
    const ch = text[i]
    if (ch === '"') {
      for (i++; text[i] !== '"'; i++) if (text[i] === '\\') i++
      if (depth === 0) return i + 1
    } else if (ch === '[' || ch === '{') depth++
    else if (ch === ']' || ch === '}') {
      if (--depth === 0) return i + 1
    }
  }
  throw new Error('unterminated JSON value')
}

/**
 * A catalogue file's text with `capture` appended to endpoint `id`'s captures and its `searched`
 * set to null. Only that entry's text changes: the files are formatted by hand, and a rewrite of
 * the whole file would reformat every other entry.
 */
export function withCapture(text, id, capture) {
  const at = text.indexOf(`"id": ${JSON.stringify(id)}`)
  if (at < 0) throw new Error(`${id} is not in this catalogue file`)
  const next = text.indexOf('"id": ', at + 1)
  const entryEnd = next < 0 ? text.length : next
  const key = text.indexOf('"captures": [', at)
  if (key < 0 || key > entryEnd) throw new Error(`${id} has no captures list`)
  const open = key + '"captures": '.length
  const close = valueEnd(text, open) - 1
  const indent = /[ ]*$/.exec(text.slice(0, key))[0]
  const block = JSON.stringify(capture, null, 2).split('\n').map((line) => `${indent}  ${line}`).join('\n')
  const inner = text.slice(open + 1, close)
  const list = inner.trim() === '' ? `[\n${block}\n${indent}]` : `[${inner.trimEnd()},\n${block}\n${indent}]`
  let out = text.slice(0, open) + list + text.slice(close + 1)
  const searched = out.indexOf('"searched": ', open + list.length)
  const entryEndAfter = out.indexOf('"id": ', open + list.length)
  if (searched >= 0 && (entryEndAfter < 0 || searched < entryEndAfter)) {
    const start = searched + '"searched": '.length
    const end = out.startsWith('null', start) ? start + 4 : valueEnd(out, start)
    out = out.slice(0, start) + 'null' + out.slice(end)
  }
  const entry = JSON.parse(out).find((e) => e.id === id)
  if (JSON.stringify(entry.captures.at(-1)) !== JSON.stringify(capture) || entry.searched !== null) throw new Error(`${id}: the edit did not land as meant`)
  return out
}

/** The SOURCE.md section of an adopted answer. */
function sourceSection({ entry, capture }) {
  const request = entry.method === 'POST' ? `POST \`${entry.request}\` with the body \`${entry.body}\`` : `\`${entry.request}\``
  return [
    `## ${basename(capture.file)}`,
    '',
    `Recorded with \`npm run smoke -- --live --record\` at ${entry.taken} (Beijing time; ${entry.hour}): ${request}.`,
    `HTTP ${entry.status}, \`${entry.contentType ?? 'no content type'}\`, ${entry.bytes} bytes, kept byte for byte${capture.encoding === 'gbk' ? ' (GBK, as the host sends it)' : ''}.`,
    'Adopted with `npm run captures -- --adopt`.',
    '',
  ].join('\n')
}

/**
 * Adopts a recording: each planned answer's bytes copied to its fixture file, its section appended
 * to the folder's SOURCE.md (made if missing), and its capture entry written into the catalogue
 * file of its family. `io` reads and writes repository-relative paths and the recording's files.
 * @returns {{ adopt: Array<object>, skip: Array<{ id: string, why: string }> }}
 */
export function adoptRecording(recordDir, endpoints, io) {
  const entries = JSON.parse(new TextDecoder().decode(io.read(join(recordDir, 'record.json'))))
  const plan = planAdoption(entries, endpoints, io.exists)
  const catalogues = new Map()
  for (const a of plan.adopt) {
    io.write(a.capture.file, io.read(join(recordDir, a.entry.file)))
    const source = `${dirname(a.capture.file)}/SOURCE.md`
    const before = io.exists(source) ? new TextDecoder().decode(io.read(source)).trimEnd() + '\n\n' : `# ${basename(dirname(a.capture.file))}: wire samples\n\n`
    io.write(source, new TextEncoder().encode(before + sourceSection(a)))
    const file = `src/data/upstreams/${a.endpoint.family}.json`
    const text = catalogues.get(file) ?? new TextDecoder().decode(io.read(file))
    catalogues.set(file, withCapture(text, a.endpoint.id, a.capture))
  }
  for (const [file, text] of catalogues) io.write(file, new TextEncoder().encode(text))
  return plan
}
