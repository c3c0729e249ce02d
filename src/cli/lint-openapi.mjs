// npm run lint:openapi — fetches /openapi.json from the built worker and runs Redocly's linter on
// it (recommended rules; the command fails on any error).
import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ROOT } from './harness.mjs'
import { OUT, openApiText, withEmulatorWorker } from './openapi-doc.mjs'

mkdirSync(OUT, { recursive: true })
writeFileSync(join(OUT, 'openapi.json'), await withEmulatorWorker('build', openApiText))
try {
  execFileSync(process.execPath, [join(ROOT, 'node_modules/@redocly/cli/bin/cli.js'), 'lint', join(OUT, 'openapi.json'), '--format', 'stylish'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  })
} catch {
  console.error('OpenAPI lint failed: see the errors above')
  process.exit(1)
}
