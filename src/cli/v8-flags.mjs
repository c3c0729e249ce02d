// Runs a Miniflare instance's workerd with V8 flags, which Miniflare's options do not offer (workerd's
// config has a `v8Flags` list; Miniflare builds that config privately and sends it, encoded, on the
// runtime's stdin). `npm run memory-proof` uses it to give the Worker's isolates a heap as small as
// the platform's 128 MB: a step that needs more aborts the runtime ("Reached heap limit") instead of
// passing on a machine with gigabytes to spare.
//
// How: Miniflare passes its config object to JSON.stringify when MINIFLARE_WORKERD_CONFIG_DEBUG is
// set (a debugging aid it documents), just before it encodes it and spawns workerd. While armed,
// this module keeps that object, and when the runtime is spawned it sends the same config with
// `v8Flags` added, encoded by Miniflare's own `serializeConfig`. Local tooling only: it touches
// neither the Worker nor its bundle.
import childProcess from 'node:child_process'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Miniflare, serializeConfig } from 'miniflare'

/** Whether a value is a workerd config as Miniflare assembles it. */
const isWorkerdConfig = (v) => v !== null && typeof v === 'object' && Array.isArray(v.services) && Array.isArray(v.sockets)

/**
 * A Miniflare instance of `options` whose workerd runs with `flags` (e.g. `--max-old-space-size=112`),
 * ready. The flags hold for every isolate of that runtime, Miniflare's own small workers included.
 */
export async function miniflareWithV8Flags(options, flags) {
  let config
  const stringify = JSON.stringify
  const spawn = childProcess.spawn
  const debugBefore = process.env.MINIFLARE_WORKERD_CONFIG_DEBUG
  process.env.MINIFLARE_WORKERD_CONFIG_DEBUG = join(tmpdir(), `workerd-config-${process.pid}.json`)
  JSON.stringify = function (value, ...rest) {
    if (isWorkerdConfig(value)) config = value
    return stringify.call(this, value, ...rest)
  }
  childProcess.spawn = function (command, args, opts) {
    const child = spawn.call(this, command, args, opts)
    if (config && Array.isArray(args) && args[0] === 'serve' && args.includes('--binary')) {
      const write = child.stdin.write.bind(child.stdin)
      const flagged = serializeConfig({ ...config, v8Flags: flags })
      child.stdin.write = (_buffer, ...rest) => write(flagged, ...rest)
    }
    return child
  }
  try {
    const mf = new Miniflare(options)
    await mf.ready
    if (!config) throw new Error('v8-flags: Miniflare sent its config without passing it to JSON.stringify; the flags were not applied')
    return mf
  } finally {
    JSON.stringify = stringify
    childProcess.spawn = spawn
    if (debugBefore === undefined) delete process.env.MINIFLARE_WORKERD_CONFIG_DEBUG
    else process.env.MINIFLARE_WORKERD_CONFIG_DEBUG = debugBefore
  }
}
