// npm start — serves the API on http://127.0.0.1:8787 (PORT overrides) with `wrangler dev`.
// UPSTREAM=live uses the real Eastmoney/Tencent/Sina hosts, UPSTREAM=emulator the built-in
// emulator; the default, auto, probes the live hosts once and falls back to the emulator.
// On the emulator with an empty store it then builds the recent history in the background
// (src/cli/first-build.mjs; BUILD_HISTORY=0 skips it) and the industry-chain members
// (BUILD_CHAINS=0 skips that).
import { spawn } from 'node:child_process'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { firstChainBuild, firstStartBuild, printCosts } from './first-build.mjs'
import { QUIET_ENV, ROOT } from './harness.mjs'
import { openMeter } from './isolate-meter.mjs'

const port = process.env.PORT || '8787'
const requested = (process.env.UPSTREAM || 'auto').toLowerCase()
if (!['auto', 'live', 'emulator'].includes(requested)) {
  console.error(`UPSTREAM must be auto, live or emulator (got '${requested}')`)
  process.exit(2)
}

const PROBES = [
  ['https://push2.eastmoney.com/api/qt/ulist.np/get?fltt=2&secids=1.000001&fields=f2', {}],
  ['https://qt.gtimg.cn/q=s_sh000001', {}],
  ['https://hq.sinajs.cn/list=s_sh000001', { Referer: 'https://finance.sina.com.cn/' }],
]

/** True when any live upstream answers at all within 3 seconds. */
async function liveReachable() {
  const tries = PROBES.map(([url, headers]) =>
    fetch(url, { headers, signal: AbortSignal.timeout(3000) }).then(
      (r) => (r.body?.cancel(), true),
      () => false
    )
  )
  return (await Promise.all(tries)).some(Boolean)
}

/** A port nothing listens on now (for wrangler dev's inspector, which the first-start build measures through). */
async function freePort() {
  const server = createServer()
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address()
  await new Promise((resolve) => server.close(resolve))
  return port
}

const mode = requested === 'auto' ? ((await liveReachable()) ? 'live' : 'emulator') : requested
const entry = mode === 'live' ? 'src/index.ts' : 'src/emulator/worker.ts'
const inspectorPort = await freePort()

const child = spawn(
  process.execPath,
  [join(ROOT, 'node_modules/wrangler/bin/wrangler.js'), 'dev', entry, '--port', port, '--ip', '127.0.0.1', '--var', `UPSTREAM:${mode}`, '--test-scheduled', '--persist-to', '.wrangler/state', '--inspector-port', String(inspectorPort)],
  { cwd: ROOT, env: QUIET_ENV, stdio: 'inherit' }
)
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig))
child.on('exit', (code) => process.exit(code ?? 0))

// Say clearly, once the service answers, which data it serves.
const base = `http://127.0.0.1:${port}`
for (let i = 0; i < 120; i++) {
  await new Promise((r) => setTimeout(r, 250))
  const up = await fetch(`${base}/v1/health`).then((r) => r.ok, () => false)
  if (!up) continue
  const line = '='.repeat(72)
  if (mode === 'emulator') {
    console.log(`\n${line}\n  SIMULATED DATA: the live upstreams ${requested === 'auto' ? 'did not answer' : 'are switched off'}; every answer comes`)
    console.log(`  from the built-in upstream emulator and says source "emulator:<channel>".\n  Serving on ${base}  (docs: ${base}/docs)\n${line}\n`)
    // The industry-chain members (about half a minute) build alongside the history (minutes),
    // step by step in turn: the meter measures one step at a time.
    const building = process.env.BUILD_HISTORY !== '0' || process.env.BUILD_CHAINS !== '0'
    const meter = building ? await openMeter(inspectorPort, child.pid) : undefined
    await Promise.all([
      process.env.BUILD_HISTORY !== '0' ? firstStartBuild(base, meter) : undefined,
      process.env.BUILD_CHAINS !== '0' ? firstChainBuild(base, meter) : undefined,
    ])
    if (meter) {
      printCosts(meter)
      meter.close()
    }
  } else {
    console.log(`\n${line}\n  LIVE DATA from Eastmoney, Tencent and Sina. Serving on ${base}  (docs: ${base}/docs)\n${line}\n`)
  }
  break
}
