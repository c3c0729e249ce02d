// npm run gen:client — regenerates the typed client's clients/typescript/src/schema.d.ts from the
// built worker's /openapi.json (openapi-typescript). Run it after changing a route's schema.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { generateClientSchema, SCHEMA_FILE } from './client-schema.mjs'
import { ROOT } from './harness.mjs'
import { openApiText, withEmulatorWorker } from './openapi-doc.mjs'

const schema = await generateClientSchema(await withEmulatorWorker('openapi-build', openApiText))
writeFileSync(join(ROOT, SCHEMA_FILE), schema)
console.log(`wrote ${SCHEMA_FILE} (${(schema.length / 1024).toFixed(0)} KB)`)
