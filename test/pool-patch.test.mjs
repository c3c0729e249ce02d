import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { DEFECT, mend, mendInstalledPool, wrapperModulePath } from './pool-patch.mjs'

/** The wrapper as the pool ships it, run as a plain module: a class whose prototype a Proxy guards. */
const SHIPPED = `const IGNORED_KEYS = ["self"];
function createProxyPrototypeClass(superClass, getUnknownPrototypeKey) {
${DEFECT}
\t}
\tReflect.setPrototypeOf(Class.prototype, superClass.prototype);
\tReflect.setPrototypeOf(Class, superClass);
\treturn Class;
}
return createProxyPrototypeClass;`

/** Constructs the wrapped class n times; answers the prototype after each and what a read of an unknown key gives. */
function construct(source, n) {
  const factory = new Function(source)()
  class Base {
    known() {
      return 'known'
    }
  }
  const Wrapped = factory(Base, (key) => `rpc:${key}`)
  const protos = []
  let last
  for (let i = 0; i < n; i++) {
    last = new Wrapped()
    protos.push(Wrapped.prototype)
  }
  return { protos, last }
}

test('the shipped wrapper adds a Proxy per construction; the mended one installs it once', () => {
  const shipped = construct(SHIPPED, 3)
  assert.notEqual(shipped.protos[1], shipped.protos[2])
  const mended = construct(mend(SHIPPED), 3)
  assert.equal(mended.protos[1], mended.protos[2])
  assert.equal(mended.protos[0], mended.protos[2])
})

test('the mended wrapper keeps the trap: inherited methods, unknown keys to RPC, ignored keys and symbols undefined', () => {
  const { last } = construct(mend(SHIPPED), 2)
  assert.equal(last.known(), 'known')
  assert.equal(last.somethingElse, 'rpc:somethingElse')
  assert.equal(last.self, undefined)
  assert.equal(last[Symbol.iterator], undefined)
})

test('mending is idempotent, and text it does not know stops the run', () => {
  assert.equal(mend(mend(SHIPPED)), mend(SHIPPED))
  assert.throws(() => mend('function Class() {}'), /pool wrapper has changed/)
})

test('mends a file in place once; the installed pool is already mended or mends cleanly', () => {
  const file = join(mkdtempSync(join(tmpdir(), 'pool-patch-')), 'test-internal.mjs')
  writeFileSync(file, SHIPPED)
  assert.equal(mendInstalledPool(file), true)
  assert.equal(mendInstalledPool(file), false)
  assert.equal(readFileSync(file, 'utf8'), mend(SHIPPED))
  const installed = readFileSync(wrapperModulePath(), 'utf8')
  assert.equal(mend(installed), mend(mend(installed)))
})
