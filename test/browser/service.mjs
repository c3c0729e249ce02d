// The service for the browser tests, started as `npm start` starts it (UPSTREAM=emulator, on a
// free port, no first-start build), and Chromium. Needs Debian's chromium (`apt-get install -y
// chromium`; CHROMIUM overrides the path), which is why these tests are not part of `npm test`.
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import assert from 'node:assert/strict'
import { chromium } from 'playwright-core'

export const ROOT = join(import.meta.dirname, '../..')
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium'

/** A port nothing listens on right now. */
const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })

/** Starts the service and Chromium; `stop()` ends both. */
export async function startService() {
  assert.ok(existsSync(CHROMIUM), `no Chromium at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM)`)
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  // Its own process group, so the wrangler and workerd under it stop with it.
  const service = spawn(process.execPath, [join(ROOT, 'src/cli/start.mjs')], {
    cwd: ROOT,
    env: { ...process.env, UPSTREAM: 'emulator', PORT: String(port), BUILD_HISTORY: '0', BUILD_CHAINS: '0' },
    stdio: 'ignore',
    detached: true,
  })
  const up = () => fetch(`${base}/v1/health`).then((r) => r.ok, () => false)
  for (let i = 0; i < 240 && !(await up()); i++) await new Promise((r) => setTimeout(r, 500))
  assert.ok(await up(), 'the service did not start')
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] })
  return {
    base,
    browser,
    async stop() {
      await browser.close()
      try {
        process.kill(-service.pid, 'SIGTERM')
      } catch {
        // already gone
      }
    },
  }
}
