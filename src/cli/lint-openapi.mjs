// npm run lint:openapi — fetches /openapi.json from the built worker and runs Redocly's linter on
// it (recommended rules; the command fails on any error).
import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { buildWorker, ROOT, startWorker } from './harness.mjs'

const out = join(ROOT, '.bench')
mkdirSync(out, { recursive: true })
const mf = startWorker(buildWorker('src/emulator/worker.ts', join(out, 'build')))
try {
  const res = await mf.dispatchFetch('http://127.0.0.1:8787/openapi.json')
  if (!res.ok) throw new Error(`/openapi.json answered ${res.status}`)
  writeFileSync(join(out, 'openapi.json'), await res.text())
} finally {
  await mf.dispose()
}
try {
  execFileSync(process.execPath, [join(ROOT, 'node_modules/@redocly/cli/bin/cli.js'), 'lint', join(out, 'openapi.json'), '--format', 'stylish'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  })
} catch {
  console.error('OpenAPI lint failed: see the errors above')
  process.exit(1)
}
