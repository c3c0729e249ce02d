// Tests for src/cli/vendor-assets.mjs (node --test src/cli/): the copies are the pinned packages'
// bytes, and a run with nothing to change writes nothing (wrangler dev would reload its assets
// otherwise).
import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { copyVendorAssets, packageDir, VENDOR_FILES } from './vendor-assets.mjs'

const copies = Object.entries(VENDOR_FILES).flatMap(([pkg, files]) => Object.entries(files).map(([name, target]) => ({ from: join(packageDir(pkg), name), target })))

test('copies swagger-ui-dist\'s and lightweight-charts\' files byte for byte, then only what differs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vendor-assets-'))
  try {
    const targets = copies.map((c) => join(dir, c.target))
    assert.deepEqual(copyVendorAssets(dir), targets)
    for (const c of copies) assert.ok(readFileSync(join(dir, c.target)).equals(readFileSync(c.from)), c.target)
    assert.deepEqual(copyVendorAssets(dir), [], 'nothing to write the second time')
    writeFileSync(targets[1], 'stale')
    assert.deepEqual(copyVendorAssets(dir), [targets[1]])
    assert.ok(readFileSync(targets[1]).equals(readFileSync(copies[1].from)))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('copies the chart library\'s standalone ES module and its licence', () => {
  assert.deepEqual(Object.values(VENDOR_FILES['lightweight-charts']), ['chart/assets/lightweight-charts.standalone.production.mjs', 'chart/assets/lightweight-charts-LICENSE.txt'])
  assert.match(readFileSync(join(packageDir('lightweight-charts'), 'LICENSE'), 'utf8'), /Apache License/)
})
