/**
 * Set-up of every workerd test file: the file starts from an empty world, as if the runtime were new.
 *
 * The workerd files share one runtime per vitest worker (vitest.config.ts: loading the Worker and
 * the emulator costs seconds a file, the tests themselves often less). Isolation moves from the
 * runtime to the storage and the isolate's memory, which this file empties before the file's
 * first test:
 * - R2 (`STORE`) and both KV namespaces (`KEYS`, `CACHE`): every object and key deleted;
 * - the anonymous callers' `AnonGuard` objects (at most 64 shards): their storage and counters
 *   emptied, so an address starts each file with a fresh minute. A `KeyGuard` is named by its key,
 *   and every test makes new keys; the tests of the object itself give each one a name of its own
 *   (no two files share one), so none is met again by a later file and none needs emptying (there
 *   are thousands by the end of a run, and emptying them all before every file cost seconds a file);
 * - the test helpers: no default key until the file's first `resetWorld`;
 * - the emulator: no faults, no hangs, the real clock, counters at zero; the service: every cache it
 *   keeps between requests forgotten, the default deadline and channel timeout.
 */
import { env, listDurableObjectIds, runInDurableObject } from 'cloudflare:test'
import { exports } from 'cloudflare:workers'
import { beforeAll } from 'vitest'
import { GuardStore } from '../src/access/guard-store'
import { forgetDefaultKey } from './helpers'

const worker = (exports as unknown as { default: { fetch(r: Request): Promise<Response> } }).default

async function control(method: string, path: string): Promise<void> {
  const res = await worker.fetch(new Request(`http://127.0.0.1:8787${path}`, { method }))
  await res.arrayBuffer()
  if (!res.ok) throw new Error(`fresh-file: ${method} ${path} → ${res.status}`)
}

async function emptyBucket(bucket: R2Bucket): Promise<void> {
  for (let cursor: string | undefined; ; ) {
    const page = await bucket.list({ cursor, limit: 1000 })
    if (page.objects.length) await bucket.delete(page.objects.map((o) => o.key))
    if (!page.truncated) return
    cursor = page.cursor
  }
}

async function emptyNamespace(kv: KVNamespace): Promise<void> {
  for (let cursor: string | undefined; ; ) {
    const page = await kv.list({ cursor })
    await Promise.all(page.keys.map((k) => kv.delete(k.name)))
    if (page.list_complete) return
    cursor = page.cursor
  }
}

/**
 * Empties every guard object of a namespace: its storage deleted, and its state in memory built again
 * by its own constructor on the empty storage. A guard keeps its counts in a GuardStore, whose
 * writes still pending are made first, so that none lands after the delete.
 */
async function resetGuards(ns: DurableObjectNamespace): Promise<void> {
  for (const id of await listDurableObjectIds(ns)) {
    await runInDurableObject(ns.get(id), async (object, state) => {
      const guard = object as unknown as { store: GuardStore; constructor: new (state: DurableObjectState, env: Env) => object }
      guard.store.counters.flush()
      await state.storage.deleteAlarm()
      await state.storage.deleteAll()
      Object.assign(guard, new guard.constructor(state, env))
    })
  }
}

beforeAll(async () => {
  forgetDefaultKey()
  await Promise.all([emptyBucket(env.STORE), emptyNamespace(env.KEYS), emptyNamespace(env.CACHE), resetGuards(env.ANON_GUARD)])
  await control('POST', '/__emulator/reset')
  await control('DELETE', '/__emulator/router')
  await control('DELETE', '/__emulator/deadline')
  await control('DELETE', '/__emulator/channel-timeout')
  await control('DELETE', '/__emulator/budgets')
})
