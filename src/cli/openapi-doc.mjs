// The app's own /openapi.json, as the built worker serves it: for the OpenAPI lint and the typed
// client's generation and check. One build and one Miniflare per call of withEmulatorWorker.
import { join } from 'node:path'
import { buildWorker, ROOT, startWorker } from './harness.mjs'

/** Where the CLIs keep what they build and write (git-ignored). */
export const OUT = join(ROOT, '.bench')

/**
 * Builds the emulator worker into `.bench/<dir>` (a directory of the caller's own, so two commands
 * can run at once), runs it in Miniflare, hands it to `use` and disposes of it after.
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
