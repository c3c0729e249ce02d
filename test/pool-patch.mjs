// Called by vitest.config.ts, before the workerd pool starts: mends a known defect of the pinned
// @cloudflare/vitest-pool-workers 0.15.1 in the copy npm installed.
//
// The pool wraps the Worker's entrypoints and Durable Object classes in a class whose constructor
// replaces the class's prototype with a Proxy of the previous one. Every construction (each call of
// `exports.default.fetch`, each new Durable Object) so adds one more Proxy to the chain, and every
// property read walks all of them: a test file's requests grow slower one after another (measured
// here: 150 calls of one emulator route, 7 ms a call at the first and 26 ms at the last; after the
// 51 tests of test/kline.test.ts, 55 ms rising to 155 ms). The upstream fix (workers-sdk pull
// request 15106, "Install wrapper prototype proxy once") installs the Proxy once per class; it ships
// only in pool releases that need a wrangler past our Node 20 pin, so the same change is made here.
//
// The edit is exact: the known text is replaced, the mended text is left alone, and anything else
// stops the run, so that a new pool version is looked at rather than patched blindly.
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The wrapper's constructor as the pinned pool ships it. */
export const DEFECT = `\tfunction Class(...args) {
\t\tClass.prototype = new Proxy(Class.prototype, { get(target, key, receiver) {
\t\t\tconst value = Reflect.get(target, key, receiver);
\t\t\tif (value !== void 0) return value;
\t\t\tif (typeof key === "symbol" || IGNORED_KEYS.includes(key)) return;
\t\t\treturn getUnknownPrototypeKey.call(receiver, key);
\t\t} });
\t\treturn Reflect.construct(superClass, args, Class);`
// The same trap, installed by the first construction only (workerd inspects the class before any).
const MENDED = `\tlet proxied = false;
\tfunction Class(...args) {
\t\tif (!proxied) {
\t\t\tproxied = true;
\t\t\tClass.prototype = new Proxy(Class.prototype, { get(target, key, receiver) {
\t\t\t\tconst value = Reflect.get(target, key, receiver);
\t\t\t\tif (value !== void 0) return value;
\t\t\t\tif (typeof key === "symbol" || IGNORED_KEYS.includes(key)) return;
\t\t\t\treturn getUnknownPrototypeKey.call(receiver, key);
\t\t\t} });
\t\t}
\t\treturn Reflect.construct(superClass, args, Class);`

/** The pool's worker-side module that holds the wrapper. */
export function wrapperModulePath() {
  // The package's entry is dist/pool/index.mjs; the worker side sits beside it.
  const entry = fileURLToPath(import.meta.resolve('@cloudflare/vitest-pool-workers'))
  return join(dirname(entry), '../worker/lib/cloudflare/test-internal.mjs')
}

/** The module's text with the Proxy installed once per class; throws on text it does not know. */
export function mend(text) {
  if (text.includes(MENDED)) return text
  const at = text.indexOf(DEFECT)
  if (at < 0 || text.indexOf(DEFECT, at + 1) >= 0) {
    throw new Error('test/pool-patch.mjs: the pool wrapper has changed (not the known 0.15.1 text); check whether the prototype Proxy is still installed per construction, then update or remove this patch')
  }
  return text.replace(DEFECT, MENDED)
}

/** Mends the installed pool in place (vitest.config.ts calls it); a second call changes nothing. */
export function mendInstalledPool(path = wrapperModulePath()) {
  const text = readFileSync(path, 'utf8')
  const mended = mend(text)
  if (mended !== text) writeFileSync(path, mended)
  return mended !== text
}
