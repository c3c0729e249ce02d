import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { buildOpenApi } from './build-openapi.mjs'

test('generates the document of every route from the source, and rewrites it only when it changed', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'openapi-test-'))
  try {
    const target = join(dir, '_data/openapi.json')
    assert.equal(await buildOpenApi(target), true)
    const doc = JSON.parse(readFileSync(target, 'utf8'))
    assert.equal(doc.openapi, '3.1.0')
    assert.equal(doc.servers, undefined) // the Worker names its origin when it serves it
    for (const path of ['/v1/quote', '/v1/kline-full', '/v1/screen', '/v1/usage']) assert.ok(doc.paths[path], path)
    assert.equal(await buildOpenApi(target), false)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
