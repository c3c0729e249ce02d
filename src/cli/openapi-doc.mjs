// The app's own /openapi.json, as the built worker serves it, and Redocly's lint of it.
import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { buildWorker, ROOT, startWorker } from './harness.mjs'

/** Where the CLIs keep what they build and write (git-ignored). */
export const OUT = join(ROOT, '.bench')

/**
 * Builds the emulator worker into `.bench/<dir>` (a directory of the caller's own, so that two
 * commands can run at once), runs it in Miniflare, hands it to `use` and disposes of it after.
 */
export async function withEmulatorWorker(dir, use) {
  const mf = startWorker(buildWorker('src/emulator/worker.ts', join(OUT, dir)))
  try {
    return await use(mf)
  } finally {
    await mf.dispose()
  }
}

/** The text of `/openapi.json` from a running worker. */
export async function openApiText(mf) {
  const res = await mf.dispatchFetch('http://127.0.0.1:8787/openapi.json')
  if (!res.ok) throw new Error(`/openapi.json answered ${res.status}`)
  return res.text()
}

/**
 * Redocly's lint of the document (recommended rules), written to `.bench/openapi.json` first;
 * prints its findings and returns whether there was no error.
 */
export function lintOpenApi(text) {
  mkdirSync(OUT, { recursive: true })
  writeFileSync(join(OUT, 'openapi.json'), text)
  try {
    execFileSync(process.execPath, [join(ROOT, 'node_modules/@redocly/cli/bin/cli.js'), 'lint', join(OUT, 'openapi.json'), '--format', 'stylish'], {
      cwd: ROOT,
      stdio: 'inherit',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    })
    return true
  } catch {
    return false
  }
}
