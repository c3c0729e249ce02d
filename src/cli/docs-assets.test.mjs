// Tests for src/cli/docs-assets.mjs (node --test src/cli/): the copies are swagger-ui-dist's bytes,
// and a run with nothing to change writes nothing (wrangler dev would reload its assets otherwise).
import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { test } from 'node:test'
import { copyDocsAssets, ROOT, SWAGGER_FILES } from './docs-assets.mjs'

const dist = dirname(createRequire(join(ROOT, 'package.json')).resolve('swagger-ui-dist/package.json'))

test('copies swagger-ui-dist\'s script and stylesheet byte for byte, then only what differs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'docs-assets-'))
  try {
    const targets = Object.values(SWAGGER_FILES).map((t) => join(dir, t))
    assert.deepEqual(copyDocsAssets(dir), targets)
    for (const [name, target] of Object.entries(SWAGGER_FILES)) assert.ok(readFileSync(join(dir, target)).equals(readFileSync(join(dist, name))), name)
    assert.deepEqual(copyDocsAssets(dir), [], 'nothing to write the second time')
    writeFileSync(targets[1], 'stale')
    assert.deepEqual(copyDocsAssets(dir), [targets[1]])
    assert.ok(readFileSync(targets[1]).equals(readFileSync(join(dist, 'swagger-ui.css'))))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
