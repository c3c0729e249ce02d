// The checks of /openapi.json, on one build of the worker (building and starting it is most of
// either check's time on a busy machine):
//   npm run lint:openapi   node src/cli/check-openapi.mjs lint     Redocly's lint (recommended rules)
//   npm run check:client   node src/cli/check-openapi.mjs client   the typed client is in step (client-check.mjs)
//   npm run check:openapi  node src/cli/check-openapi.mjs lint client   both, as npm test runs them
// Exits 1 when any check fails (each chosen check runs).
import { checkClient, ClientCheckFailure } from './client-check.mjs'
import { lintOpenApi, openApiText, withEmulatorWorker } from './openapi-doc.mjs'

const CHECKS = ['lint', 'client']
const chosen = process.argv.slice(2)
if (!chosen.length || chosen.some((c) => !CHECKS.includes(c))) {
  console.error(`usage: node src/cli/check-openapi.mjs ${CHECKS.map((c) => `[${c}]`).join(' ')} (at least one)`)
  process.exit(2)
}

const failed = await withEmulatorWorker('openapi-build', async (mf) => {
  const text = await openApiText(mf)
  const failures = []
  if (chosen.includes('lint') && !lintOpenApi(text)) failures.push('OpenAPI lint failed: see the errors above')
  if (chosen.includes('client')) {
    try {
      const output = await checkClient(mf, text)
      console.log(`check:client: the typed client is current and type-checks; its example ran against the worker:\n${output.trimEnd()}`)
    } catch (e) {
      if (!(e instanceof ClientCheckFailure)) throw e
      failures.push(`check:client: ${e.message}`)
    }
  }
  return failures
})
for (const f of failed) console.error(f)
if (failed.length) process.exit(1)
