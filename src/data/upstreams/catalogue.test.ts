import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { HOURS, UPSTREAM_ENDPOINTS } from '.'
import { heldCaptures, probes } from '../../emulator/wire/held-captures'

/** Non-test channel sources, path from the project's root → text. */
function channelSources(): Map<string, string> {
  const out = new Map<string, string>()
  for (const f of readdirSync('src/channels', { recursive: true, encoding: 'utf8' })) {
    if (f.endsWith('.ts') && !f.endsWith('.test.ts')) out.set(join('src/channels', f), readFileSync(join('src/channels', f), 'utf8'))
  }
  return out
}

/**
 * Literal URLs in channel code that are not endpoints we call: links we hand to users, XML
 * namespaces of pages we parse, and the examples of comments.
 */
const NOT_ENDPOINTS = [
  /^http:\/\/www\.w3\.org\//,
  /^https:\/\/pdf\.dfcfw\.com\//, // report PDFs: a link in the answer, never fetched
  /^https:\/\/x\//, // placeholder hosts of comments and examples
  /^https:\/\/live-lines\.internal\//, // the Cache API keys of the shared lines (src/channels/line-cache.ts), never fetched
  /^http:\/\/www\.szse\.cn\/aboutus\/calendar\/$/, // the Referer SZSE's month request carries
  /^https:\/\/data\.eastmoney\.com\/report\/stock\.jshtml$/, // the Referer of the research-report list
]

/** The literal prefix of a catalogue URL or a code literal, up to its first placeholder. */
const fixedPart = (url: string) => url.split(/\$\{|\{|\?/)[0]

describe('the upstream catalogue', () => {
  it('names each endpoint once, with a capture on disk or what was searched', () => {
    const ids = UPSTREAM_ENDPOINTS.map((e) => e.id)
    expect(new Set(ids).size).toBe(ids.length)
    for (const e of UPSTREAM_ENDPOINTS) {
      expect(e.captures.length > 0 || (e.searched ?? '').length > 20, `${e.id}: a capture, or what was searched`).toBe(true)
      for (const c of e.captures) {
        expect(existsSync(c.file), `${e.id}: ${c.file}`).toBe(true)
        expect(HOURS, `${e.id}: ${c.file}`).toContain(c.hour)
        expect(c.taken, `${e.id}: ${c.file}`).toMatch(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2})?\+08:00)?$/)
        expect(c.source.length, `${e.id}: ${c.file} source`).toBeGreaterThan(8)
      }
      for (const f of e.callers) expect(existsSync(f), `${e.id}: caller ${f}`).toBe(true)
    }
  })

  it('lets npm run smoke ask every endpoint: its newest held capture, else its probe (live and for the emulator)', () => {
    const unasked = [...probes(), ...probes(undefined, true)].filter((p) => !p.url).map((p) => p.endpoint.id)
    expect(unasked).toEqual([])
  })

  it('gives every endpoint without a held capture a probe on its own host, path and report', () => {
    const escape = (s: string) => s.replace(/[.*+?^$()|[\]\\]/g, '\\$&')
    const held = new Set(heldCaptures().map((h) => h.endpoint.id))
    for (const e of UPSTREAM_ENDPOINTS) {
      if (!held.has(e.id)) expect(e.probe, `${e.id}: a probe`).toBeTruthy()
      const [, host, path] = /^https?:\/\/([^/?]+)(\/[^?]*)/.exec(e.url) ?? []
      const ownPath = new RegExp(`^${path.split(/\{[^}]+\}/).map(escape).join('[^/]+')}$`)
      for (const raw of [e.probe, e.emulatorProbe]) {
        if (raw === undefined) continue
        const url = new URL(raw)
        expect(url.hostname, `${e.id}: ${raw}`).toBe(host)
        expect(url.pathname, `${e.id}: ${raw}`).toMatch(ownPath)
        if (e.report) expect(url.searchParams.get('reportName'), `${e.id}: ${raw}`).toBe(e.report)
      }
      if (e.probeBody !== undefined) expect(() => JSON.parse(e.probeBody!), `${e.id}: probeBody`).not.toThrow()
      if (e.emulatorProbe !== undefined) expect(e.probe, `${e.id}: emulatorProbe stands in for a probe`).toBeTruthy()
    }
  })

  it('lists every URL and datacenter report the channels call', () => {
    const catalogued = UPSTREAM_ENDPOINTS.map((e) => fixedPart(e.url))
    const reports = new Set(UPSTREAM_ENDPOINTS.map((e) => e.report).filter(Boolean))
    const missing: string[] = []
    for (const [file, text] of channelSources()) {
      for (const m of text.matchAll(/https?:\/\/[A-Za-z0-9.-]+[^'"`\s)]*/g)) {
        const literal = fixedPart(m[0])
        if (NOT_ENDPOINTS.some((re) => re.test(literal))) continue
        if (!catalogued.some((u) => u.startsWith(literal) || literal.startsWith(u))) missing.push(`${file}: ${literal}`)
      }
      for (const m of text.matchAll(/\bRPTA?_[A-Z0-9_]*[A-Z0-9]\b/g)) if (!reports.has(m[0]) && !m[0].endsWith('_FN')) missing.push(`${file}: ${m[0]}`)
    }
    expect(missing).toEqual([])
  })
})
