import { describe, expect, it } from 'vitest'
import { DOCS_CSP, DOCS_FILES } from '../src/routes/docs'
import { call } from './helpers'

/** Every absolute http(s) URL in a text. */
const absoluteUrls = (text: string) => [...text.matchAll(/https?:\/\/[^\s"'`)<>]+/g)].map((m) => m[0])

describe('/docs offline', () => {
  it('redirects / to /docs', async () => {
    const res = await call('/', { anonymous: true, redirect: 'manual' })
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/docs')
  })

  it('serves the page and every asset it loads from this origin, each with the strict policy', async () => {
    const page = await (await call('/docs', { anonymous: true })).text()
    const referenced = [...page.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1])
    expect(referenced.length).toBeGreaterThanOrEqual(3)
    for (const path of ['/docs', ...referenced]) {
      expect(path, 'a path on this origin').toMatch(/^\/docs(\/|$)/)
      const res = await call(path, { anonymous: true })
      expect(res.status, path).toBe(200)
      expect(res.headers.get('content-security-policy'), path).toBe(DOCS_CSP)
      expect(res.headers.get('content-type'), path).toMatch(/^(text\/html|text\/css|text\/javascript)/)
      expect((await res.text()).length, path).toBeGreaterThan(0)
    }
  })

  it('allows nothing but this origin (plus data: images) in the policy', () => {
    const directives = DOCS_CSP.split('; ')
    expect(directives).toContain("default-src 'none'")
    expect(directives).toContain("script-src 'self'")
    expect(directives).toContain("connect-src 'self'")
    expect(directives).toContain("style-src 'self'")
    for (const d of directives) expect(d, d).not.toMatch(/https?:|\*|'unsafe-|'strict-dynamic'/)
  })

  it('names no remote origin the page could load from', async () => {
    // The page and our start-up script carry no absolute URL at all.
    for (const path of ['/docs', '/docs/assets/init.js']) {
      expect(absoluteUrls(await (await call(path, { anonymous: true })).text()), path).toEqual([])
    }
    // The stylesheet loads nothing remote (its icons are data: URIs).
    const css = await (await call('/docs/assets/swagger-ui.css', { anonymous: true })).text()
    expect([...css.matchAll(/url\(\s*['"]?(https?:[^)'"]+)/g)].map((m) => m[1])).toEqual([])
    // The bundle is pinned third-party code: its strings mention URLs (licences, spec links), which
    // the policy stops it from loading; our start-up turns off the one it would call (the validator).
    expect(DOCS_FILES['/docs/assets/init.js'].body).toContain('validatorUrl: null')
    expect(DOCS_FILES['/docs/assets/init.js'].body).toContain("url: '/openapi.json'")
  })
})
