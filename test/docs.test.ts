import { env } from 'cloudflare:test'
import swaggerBundle from 'swagger-ui-dist/swagger-ui-bundle.js?raw'
import swaggerCss from 'swagger-ui-dist/swagger-ui.css?raw'
import { describe, expect, it } from 'vitest'
import { call } from './helpers'

/**
 * /docs and its files are Workers static assets (wrangler.toml [assets], public/), read here through
 * the assets binding: the pool's SELF, like `call`, reaches the Worker directly, not the assets
 * router in front of it (`npm run test:browser` goes through that router, as `npm start` serves).
 */
const get = (path: string) => env.ASSETS.fetch(`https://example.com${path}`)

const sha256 = async (bytes: BufferSource | Promise<ArrayBuffer>) =>
  [...new Uint8Array(await crypto.subtle.digest('SHA-256', await bytes))].map((b) => b.toString(16).padStart(2, '0')).join('')

/** Every absolute http(s) URL in a text. */
const absoluteUrls = (text: string) => [...text.matchAll(/https?:\/\/[^\s"'`)<>]+/g)].map((m) => m[0])

/** The page's policy; every file it loads carries the same. */
async function docsPolicy(): Promise<string> {
  return (await get('/docs')).headers.get('content-security-policy') ?? ''
}

describe('/docs offline', () => {
  it('redirects / to /docs', async () => {
    const res = await call('/', { anonymous: true, redirect: 'manual' })
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/docs')
  })

  it('serves the page and every file it loads from this origin, each with the strict policy', async () => {
    const page = await (await get('/docs')).text()
    const referenced = [...page.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1])
    expect(referenced).toEqual(['/docs/assets/swagger-ui.css', '/docs/assets/swagger-ui-bundle.js', '/docs/assets/init.js', '/shared/simulated.js'])
    const policy = await docsPolicy()
    for (const path of ['/docs', ...referenced]) {
      const res = await get(path)
      expect(res.status, path).toBe(200)
      expect(res.headers.get('content-security-policy'), path).toBe(policy)
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff')
      expect(res.headers.get('content-type'), path).toMatch(/^(text\/html|text\/css|(text|application)\/javascript)/)
      expect((await res.text()).length, path).toBeGreaterThan(0)
    }
  })

  it('serves the pinned swagger-ui-dist files byte for byte', async () => {
    for (const [path, text] of [['/docs/assets/swagger-ui-bundle.js', swaggerBundle], ['/docs/assets/swagger-ui.css', swaggerCss]]) {
      expect(text.length, path).toBeGreaterThan(100_000)
      expect(await sha256((await get(path)).arrayBuffer()), path).toBe(await sha256(new TextEncoder().encode(text)))
    }
  })

  it('says at the top when the service runs on its simulated market (the banner asks /v1/health)', async () => {
    const script = await (await get('/shared/simulated.js')).text()
    expect(script).toMatch(/fetch\('\/v1\/health'\)/)
    expect(script).toMatch(/health\.upstream !== 'emulator'/)
    expect((await call('/v1/health', { anonymous: true })).headers.get('x-data-simulated')).toBe('true')
  })

  it('caches the files a day and has the page revalidated', async () => {
    expect((await get('/docs')).headers.get('cache-control')).toBe('no-cache')
    expect((await get('/docs/assets/swagger-ui-bundle.js')).headers.get('cache-control')).toBe('public, max-age=86400')
  })

  it('allows nothing but this origin (plus data: images) in the policy', async () => {
    const directives = (await docsPolicy()).split('; ')
    expect(directives).toContain("default-src 'none'")
    expect(directives).toContain("script-src 'self'")
    expect(directives).toContain("connect-src 'self'")
    expect(directives).toContain("style-src 'self'")
    for (const d of directives) expect(d, d).not.toMatch(/https?:|\*|'unsafe-|'strict-dynamic'/)
  })

  it('names no remote origin the page could load from', async () => {
    // The page and our start-up script carry no absolute URL at all.
    for (const path of ['/docs', '/docs/assets/init.js']) {
      expect(absoluteUrls(await (await get(path)).text()), path).toEqual([])
    }
    // The stylesheet loads nothing remote (its icons are data: URIs).
    expect([...swaggerCss.matchAll(/url\(\s*['"]?(https?:[^)'"]+)/g)].map((m) => m[1])).toEqual([])
    // The bundle is pinned third-party code: its strings mention URLs (licences, spec links), which
    // the policy stops it from loading; our start-up turns off the one it would call (the validator).
    const init = await (await get('/docs/assets/init.js')).text()
    expect(init).toContain('validatorUrl: null')
    expect(init).toContain("url: '/openapi.json'")
  })
})
