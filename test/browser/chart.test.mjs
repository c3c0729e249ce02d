// npm run test:browser — /chart in a real Chromium with no network, against the service as
// `npm start` runs it (test/browser/service.mjs). The page must draw candles, volume and MACD (real
// pixels in the up and down colours on each pane), draw again on a period or code switch with the
// URL in step, meet the anonymous limit and get past it by solving the proof-of-work in a Web
// Worker, use a key from sessionStorage as `Authorization: Bearer` and never in a URL, request
// nothing from another origin, break no Content-Security-Policy rule and log no error.
import { spawnSync } from 'node:child_process'
import { randomInt } from 'node:crypto'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { ROOT, startService } from './service.mjs'
import { COLORS } from '../../public/chart/bars.js'

let service
let browser
let base

before(async () => {
  service = await startService()
  ;({ base, browser } = service)
})

after(() => service?.stop())

/**
 * Codes the emulator models (src/emulator/market/catalog.ts); each new one is a call the browser
 * cannot answer from its HTTP cache. Thirteen: whatever the minute windows' edges, 5 a minute are
 * used up before the list is.
 */
const CODES = ['sz000001', 'sh601318', 'sz000858', 'sz300750', 'sh688981', 'sh600036', 'sh601398', 'sz002594', 'sh600900', 'sh000001', 'sh000300', 'sz399001', 'sz399006']

/**
 * A page with everything the test watches: requests, responses, Web Workers, console messages,
 * script errors and Content-Security-Policy violations.
 */
async function openPage(context) {
  const page = await context.newPage()
  const seen = { requests: [], responses: [], workers: [], console: [], errors: [] }
  page.on('request', (r) => seen.requests.push({ url: r.url(), headers: r.headers() }))
  page.on('response', (r) => seen.responses.push({ url: r.url(), status: r.status(), request: r.request() }))
  page.on('worker', (w) => seen.workers.push(w.url()))
  page.on('console', (m) => seen.console.push({ type: m.type(), text: m.text(), url: m.location().url }))
  page.on('pageerror', (e) => seen.errors.push(String(e)))
  await page.addInitScript(() => {
    window.__violations = []
    document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`))
  })
  return { page, seen }
}

/** Waits until the page has drawn `code period`, or fails with what the page says. */
async function drawn(page, code, period) {
  await page.waitForFunction(([c, p]) => document.body.dataset.state === 'error' || (document.body.dataset.state === 'ready' && document.body.dataset.shown === `${c} ${p}`), [code, period], { timeout: 60_000 })
  assert.equal(await page.getAttribute('body', 'data-state'), 'ready', await page.textContent('#status'))
}

const rgb = (hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16))

/**
 * Per pane: pixels in the up and the down colour over its canvases, and a digest of what is drawn
 * (to tell one drawing from the next).
 */
function panePixels(page) {
  return page.evaluate(
    ([up, down]) => {
      const out = {}
      for (const pane of document.querySelectorAll('[data-pane]')) {
        let ups = 0
        let downs = 0
        let digest = 0
        for (const canvas of pane.querySelectorAll('canvas')) {
          if (!canvas.width || !canvas.height) continue
          const px = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data
          for (let i = 0; i < px.length; i += 4) {
            const [r, g, b] = [px[i], px[i + 1], px[i + 2]]
            if (r === up[0] && g === up[1] && b === up[2]) ups++
            else if (r === down[0] && g === down[1] && b === down[2]) downs++
            digest = (digest * 31 + r * 7 + g * 3 + b + (i & 0xff)) >>> 0
          }
        }
        out[pane.dataset.pane] = { ups, downs, digest }
      }
      return out
    },
    [rgb(COLORS.up), rgb(COLORS.down)]
  )
}

/** Each pane shows rising and falling bars (candles, volume, MACD bars above and below zero). */
function assertDrawn(pixels, what) {
  assert.deepEqual(Object.keys(pixels).sort(), ['macd', 'price', 'volume'], `${what}: three panes`)
  for (const [pane, { ups, downs }] of Object.entries(pixels)) {
    assert.ok(ups > 50 && downs > 50, `${what}: the ${pane} pane has up (${ups}) and down (${downs}) pixels`)
  }
}

/** What must hold for every page: this origin only, no policy violation, no error. */
async function assertClean(page, seen, expectedRefusals) {
  const elsewhere = seen.requests.map((r) => r.url).filter((u) => !u.startsWith('data:') && new URL(u).origin !== base)
  assert.deepEqual(elsewhere, [], 'every request stays on this origin')
  assert.deepEqual(await page.evaluate(() => window.__violations), [], 'the Content-Security-Policy blocked nothing')
  assert.deepEqual(seen.errors, [], 'no script error on the page')
  // Chromium logs every HTTP error status of a fetch to the console; the refusals the test provokes
  // on purpose (an anonymous 429, a minute period without a key) are the only ones allowed.
  const refusal = /^Failed to load resource: the server responded with a status of (\d+)/
  const provoked = (m) => refusal.test(m.text) && expectedRefusals.includes(Number(refusal.exec(m.text)[1])) && new URL(m.url).pathname === '/v1/kline'
  const errors = seen.console.filter((m) => m.type === 'error' && !provoked(m))
  assert.deepEqual(errors, [], 'no console error')
}

test('anonymous: draws, re-draws on a period and a code switch, keeps ?code= in step, and solves the proof-of-work in a Web Worker', async () => {
  // The anonymous allowance is the address's, and a proof raises it for the address (for ten
  // minutes, in the Durable Object state `npm start` keeps): a fresh address per run, as the
  // Worker reads it (CF-Connecting-IP, which `wrangler dev` passes through), starts at 5 a minute.
  const ip = `10.${randomInt(256)}.${randomInt(256)}.${1 + randomInt(254)}`
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, extraHTTPHeaders: { 'CF-Connecting-IP': ip } })
  const { page, seen } = await openPage(context)
  const response = await page.goto(`${base}/chart?code=sh600519`)
  assert.equal(response.status(), 200)
  assert.match(response.headers()['content-security-policy'] ?? '', /default-src 'none'.*worker-src 'self'/)
  await drawn(page, 'sh600519', 'day')
  const day = await panePixels(page)
  assertDrawn(day, 'sh600519 day')
  if (process.env.CHART_SCREENSHOT) await page.screenshot({ path: process.env.CHART_SCREENSHOT })

  await page.click('button[data-period="week"]')
  await drawn(page, 'sh600519', 'week')
  const week = await panePixels(page)
  assertDrawn(week, 'sh600519 week')
  assert.notEqual(week.price.digest, day.price.digest, 'the week chart is drawn anew')
  assert.notEqual(week.macd.digest, day.macd.digest, 'so is its MACD')
  assert.equal(new URL(page.url()).search, '?code=sh600519&period=week')
  assert.equal(await page.getAttribute('button[data-period="week"]', 'aria-pressed'), 'true')

  // New codes until the anonymous allowance of 5 calls a minute is used up: the 429 carries a
  // challenge, the page solves it in a Web Worker and retries with X-PoW.
  let previous = week
  let shown
  for (const code of CODES) {
    await page.fill('#code', code)
    await page.press('#code', 'Enter')
    await drawn(page, code, 'week')
    shown = code
    const now = await panePixels(page)
    assertDrawn(now, `${code} week`)
    assert.notEqual(now.price.digest, previous.price.digest, `${code} is drawn anew`)
    assert.equal(new URL(page.url()).searchParams.get('code'), code)
    previous = now
    if (seen.responses.some((r) => r.status === 429)) break
  }
  const refused = seen.responses.find((r) => r.status === 429)
  assert.ok(refused, 'the anonymous limit was met')
  assert.ok(seen.workers.includes(`${base}/chart/pow-worker.js`), 'the proof-of-work ran in the Web Worker')
  const retried = seen.responses.filter((r) => r.url === refused.url && r.status === 200).at(-1)
  assert.ok(retried, 'the refused call was retried and answered')
  const proof = (await retried.request.allHeaders())['x-pow']
  assert.match(proof ?? '', /^p1~\d+~16~[\w-]+~[\w-]+~[\w-]+\.\d+$/, 'the retry carried the solved challenge')
  assert.match(await page.textContent('#status'), /Proof-of-work solved in \d+ ms/)
  assert.equal(await page.getAttribute('body', 'data-shown'), `${shown} week`)

  // The next call sends the proof too, without another solve.
  await page.click('button[data-period="month"]')
  await drawn(page, shown, 'month')
  assertDrawn(await panePixels(page), `${shown} month`)
  const monthCall = seen.requests.filter((r) => r.url.includes('/v1/kline') && r.url.includes('period=month')).at(-1)
  assert.equal(monthCall.headers['x-pow'], proof)
  assert.equal(seen.workers.length, 1, 'one solve for the proof\'s lifetime')

  // A minute period without a key: the page says what it needs.
  await page.click('button[data-period="m5"]')
  await page.waitForFunction(() => document.body.dataset.state === 'error')
  assert.match(await page.textContent('#status'), /m5 bars need an API key of tier standard or above/)

  await assertClean(page, seen, [429, 401])
  await context.close()
})

test('keyed: the key is kept in sessionStorage, sent as Authorization: Bearer, never in a URL; minute bars draw', async () => {
  const created = spawnSync(process.execPath, [join(ROOT, 'src/cli/key.mjs'), 'create', '--tier', 'standard', '--label', 'browser test of /chart'], { cwd: ROOT, encoding: 'utf8' })
  assert.equal(created.status, 0, created.stderr)
  const key = created.stdout.trim().split('\n').at(-1)
  assert.match(key, /^mk_/)

  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } })
  const { page, seen } = await openPage(context)
  await page.goto(`${base}/chart?code=sh600519&period=m30`)
  await page.waitForFunction(() => document.body.dataset.state === 'error')
  await page.fill('#key-input', key)
  await page.press('#key-input', 'Enter')
  await drawn(page, 'sh600519', 'm30')
  assertDrawn(await panePixels(page), 'sh600519 m30')
  assert.equal(await page.evaluate(() => sessionStorage.getItem('chart.key')), key)
  assert.equal(await page.inputValue('#key-input'), '', 'the box does not keep showing the key')

  for (const period of ['m5', 'm60', 'day']) {
    await page.click(`button[data-period="${period}"]`)
    await drawn(page, 'sh600519', period)
    assertDrawn(await panePixels(page), `sh600519 ${period}`)
  }
  // A reload keeps the key for the tab.
  await page.reload()
  await drawn(page, 'sh600519', 'day')

  const calls = seen.requests.filter((r) => r.url.includes('/v1/kline'))
  const keyed = calls.filter((r) => r.headers.authorization === `Bearer ${key}`)
  assert.ok(keyed.length >= 4, 'the keyed calls carry the key in Authorization')
  for (const r of keyed) assert.match(r.url, /count=1000/, 'keyed calls ask for 1,000 bars')
  assert.deepEqual(seen.requests.filter((r) => r.url.includes(key) || r.url.includes(encodeURIComponent(key))), [], 'the key is in no URL')
  assert.ok(!page.url().includes(key))

  // Forget it: the next call is anonymous again.
  await page.click('#key-forget')
  await drawn(page, 'sh600519', 'day')
  assert.equal(await page.evaluate(() => sessionStorage.getItem('chart.key')), null)
  assert.equal(seen.requests.filter((r) => r.url.includes('/v1/kline')).at(-1).headers.authorization, undefined)

  await assertClean(page, seen, [401])
  await context.close()
})
