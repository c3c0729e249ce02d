// npm run test:browser — /docs in a real Chromium with no network: the service starts as `npm start`
// does (UPSTREAM=emulator, on a free port), Chromium loads /docs, every /v1 path of /openapi.json
// must be listed on the page, no request may go to another origin and the page's
// Content-Security-Policy must not have blocked anything (it would mean the UI wanted something
// from elsewhere). Needs Debian's chromium (test/browser/service.mjs).
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { startService } from './service.mjs'

let service
let browser
let base

before(async () => {
  service = await startService()
  ;({ base, browser } = service)
})

after(() => service?.stop())

test('/docs lists every /v1 path, runs a call, loads nothing from another origin and breaks no CSP rule', async () => {
  const document = await (await fetch(`${base}/openapi.json`)).json()
  const paths = Object.keys(document.paths).filter((p) => p.startsWith('/v1/'))
  assert.ok(paths.length > 5, 'the document has the API paths')

  const page = await browser.newPage()
  const requests = []
  page.on('request', (r) => requests.push(r.url()))
  const errors = []
  page.on('pageerror', (e) => errors.push(String(e)))
  await page.addInitScript(() => {
    window.__violations = []
    document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`))
  })

  const response = await page.goto(`${base}/docs`, { waitUntil: 'networkidle' })
  assert.equal(response.status(), 200)
  assert.match(response.headers()['content-security-policy'] ?? '', /default-src 'none'/)
  await page.waitForSelector('.opblock-summary-path', { timeout: 30_000 })

  const listed = await page.$$eval('.opblock-summary-path', (els) => els.map((e) => e.getAttribute('data-path')))
  for (const p of paths) assert.ok(listed.includes(p), `${p} is listed on /docs`)

  // Use it: open /v1/health, "Try it out", "Execute": the call goes to this service and the
  // answer is shown (expanding and rendering must not need anything the policy refuses either).
  await page.click('.opblock-summary-path[data-path="/v1/health"]')
  await page.click('#operations-Free-health .try-out__btn')
  await page.click('#operations-Free-health .execute')
  await page.waitForSelector('#operations-Free-health .live-responses-table .response-col_status', { timeout: 30_000 })
  assert.ok(requests.includes(`${base}/v1/health`), 'Try it out called this service')
  assert.match(await page.textContent('#operations-Free-health .live-responses-table'), /data_ready/)

  const elsewhere = requests.filter((u) => !u.startsWith('data:') && new URL(u).origin !== base)
  assert.deepEqual(elsewhere, [], 'every request stays on this origin')
  assert.ok(requests.includes(`${base}/openapi.json`), 'the page read the document from this service')
  assert.deepEqual(await page.evaluate(() => window.__violations), [], 'the Content-Security-Policy blocked nothing')
  assert.deepEqual(errors, [], 'no script error on the page')
  await page.close()
})
