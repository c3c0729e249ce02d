import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { encodeState, stateThrough } from '../domain/indicators/step'
import { statesIndexKey, statesPrefix, technicalsStateKey } from './keys'
import { codesByShard, SHARD_ROWS, StateShards, shardFirsts, shardOf, StatesWriter, writeStates, type StatesIndex } from './state-shards'
import { statesDay, statesText } from './technicals-state'

const DATE = '2026-11-19'
const bar = (date: string, close: number) => ({ date, open: close, high: close + 1, low: close - 1, close, volume: 1000 })
/** A real state after `date`, different per stock. */
const stateOf = (k: number, date = DATE) => encodeState(stateThrough([bar('2026-11-10', 10 + k / 100), bar(date, 11 + k / 100)]))
const CODES = Array.from({ length: 600 }, (_, k) => `sh6${String(k * 7).padStart(5, '0')}`)
const ALL = new Map(CODES.map((c, k) => [c, stateOf(k)]))

/** env.STORE, counting the GETs of each key. */
function countingStore() {
  const gets: string[] = []
  const bucket = new Proxy(env.STORE, {
    get(target, prop) {
      if (prop === 'get') return (key: string, o?: R2GetOptions) => (gets.push(key), target.get(key, o))
      const v = Reflect.get(target, prop)
      return typeof v === 'function' ? v.bind(target) : v
    },
  })
  return { bucket, gets }
}

async function keysUnder(prefix: string) {
  return (await env.STORE.list({ prefix })).objects.map((o) => o.key)
}

const shuffled = <T>(xs: T[]) => xs.map((x, k) => [(k * 7919) % 101, x] as const).sort((a, b) => a[0] - b[0]).map(([, x]) => x)

describe('shard selection', () => {
  it('cuts the sorted universe every SHARD_ROWS codes and finds each code\'s range', () => {
    const firsts = shardFirsts(CODES)
    expect(firsts).toEqual([CODES[0], CODES[SHARD_ROWS], CODES[2 * SHARD_ROWS]])
    expect(shardOf(firsts, CODES[0])).toBe(0)
    expect(shardOf(firsts, CODES[SHARD_ROWS - 1])).toBe(0)
    expect(shardOf(firsts, CODES[SHARD_ROWS])).toBe(1)
    expect(shardOf(firsts, CODES[599])).toBe(2)
    // codes between or beyond the universe's: the range that holds them
    expect(shardOf(firsts, 'bj430001')).toBe(0)
    expect(shardOf(firsts, 'sz000001')).toBe(2)
  })

  it('groups the codes a caller asks for by the shards that hold them, and no other shard', () => {
    const index = { shards: shardFirsts(CODES).map((first, n) => ({ key: `k${n}`, first, rows: 1 })) }
    const groups = codesByShard(index, [CODES[3], CODES[599], CODES[1], CODES[400]])
    expect([...groups]).toEqual([
      [0, [CODES[3], CODES[1]]],
      [2, [CODES[599]]],
      [1, [CODES[400]]],
    ])
  })
})

describe('StatesWriter', () => {
  it('writes shards whose lines are the whole day\'s, then the index naming them', async () => {
    const writer = new StatesWriter(env.STORE, DATE, CODES)
    // chunk by chunk, each chunk's stocks in the order they finished
    for (let c = 0; c < CODES.length; c += 100) for (const code of shuffled(CODES.slice(c, c + 100))) await writer.add(code, ALL.get(code)!)
    expect(await writer.finish()).toMatchObject({ rows: 600, shards: 3 })
    const index = (await (await env.STORE.get(statesIndexKey(DATE)))!.json()) as StatesIndex
    expect(index).toMatchObject({ v: 1, date: DATE, rows: 600 })
    expect(index.shards.map((s) => [s.first, s.rows])).toEqual([
      [CODES[0], 250],
      [CODES[250], 250],
      [CODES[500], 100],
    ])
    const texts = await Promise.all(index.shards.map(async (s) => (await env.STORE.get(s.key))!.text()))
    expect(texts.join('\n')).toBe(statesText(ALL))
  })

  it('writes a shard once its codes are in, or once a state two shards on arrives: never the whole day at once', async () => {
    const date = '2026-11-16'
    const states = new Map(CODES.map((c, k) => [c, stateOf(k, date)]))
    const writer = new StatesWriter(env.STORE, date, CODES)
    const shardsWritten = async () => (await keysUnder(statesPrefix(date))).length
    const halted = CODES[10] // listed, but no state that day
    for (const code of CODES.slice(0, 250)) if (code !== halted) await writer.add(code, states.get(code)!)
    for (const code of CODES.slice(250, 500)) await writer.add(code, states.get(code)!)
    expect(await shardsWritten()).toBe(1) // shard 1 (complete); shard 0 waits for its last code
    await writer.add(CODES[500], states.get(CODES[500])!)
    expect(await shardsWritten()).toBe(2) // a state of shard 2: shard 0 is written without the halted stock
    await writer.add(halted, states.get(halted)!) // too late: dropped
    for (const code of CODES.slice(501)) await writer.add(code, states.get(code)!)
    expect(await writer.finish()).toMatchObject({ rows: 599, shards: 3 })
    const picked = (await new StateShards().read(env.STORE, date, [halted, CODES[11], CODES[599]]))!
    expect(picked.state(halted)).toBeUndefined()
    const whole = statesDay(date, statesText(states))
    expect(picked.state(CODES[11])).toEqual(whole.state(CODES[11]))
    expect(picked.state(CODES[599])).toEqual(whole.state(CODES[599]))
    expect(picked.state(CODES[599])).toMatchObject({ date })
  })
})

describe('a day without states', () => {
  it('writes nothing and leaves what the day had: a backfill\'s older table days carry no states', async () => {
    const date = '2026-11-13'
    await writeStates(env.STORE, date, new Map([[CODES[0], stateOf(0, date)]]))
    const before = await keysUnder(statesPrefix(date))
    expect(await new StatesWriter(env.STORE, date, CODES).finish()).toEqual({ rows: 0, bytes: 0, shards: 0 })
    expect(await keysUnder(statesPrefix(date))).toEqual(before)
    expect(await new StateShards().read(env.STORE, '2026-11-12', CODES)).toBeUndefined()
    expect(await new StatesWriter(env.STORE, '2026-11-12', CODES).finish()).toMatchObject({ rows: 0 })
    expect(await keysUnder(statesPrefix('2026-11-12'))).toEqual([])
  })
})

describe('StateShards.read', () => {
  it('reads only the shards of the codes asked for, and gives the states the whole day\'s text gives', async () => {
    await writeStates(env.STORE, DATE, ALL)
    const whole = statesDay(DATE, statesText(ALL))
    const { bucket, gets } = countingStore()
    const asked = [CODES[5], CODES[260], CODES[261], 'sh600001'] // the last is in shard 0's range, and not listed
    const picked = (await new StateShards().read(bucket, DATE, asked))!
    expect(picked.size).toBe(600)
    for (const code of asked) expect(picked.state(code), code).toEqual(whole.state(code))
    expect(picked.state('sh600001')).toBeUndefined()
    const shardGets = gets.filter((k) => k.startsWith(statesPrefix(DATE)) && !k.endsWith('index.json'))
    expect(shardGets.length).toBeLessThanOrEqual(2) // shards 0 and 1; never shard 2 (a parsed shard is kept, so maybe fewer)
    expect(new Set(shardGets).size).toBe(shardGets.length)
  })

  it('reads a day stored in one file (before the shards) as a stream, keeping the lines asked for', async () => {
    const date = '2026-11-18'
    const old = new Map(CODES.slice(0, 3).map((c, k) => [c, encodeState(stateThrough([bar('2026-11-17', 10 + k), bar(date, 11 + k)]))]))
    await env.STORE.put(technicalsStateKey(date), statesText(old))
    const picked = (await new StateShards().read(env.STORE, date, [CODES[1], 'sh699999']))!
    expect(picked.size).toBe(3)
    expect(picked.state(CODES[1])).toEqual(statesDay(date, statesText(old)).state(CODES[1]))
    expect(picked.state(CODES[0])).toBeUndefined() // not asked for
    expect(await new StateShards().read(env.STORE, '2026-11-17', [CODES[1]])).toBeUndefined()
  })

  it('a rewrite of the day replaces the set and the one-file layout; readers see the new states', async () => {
    const date = '2026-11-17'
    await env.STORE.put(technicalsStateKey(date), 'sh600000\t{}')
    const first = new Map([[CODES[0], encodeState(stateThrough([bar(date, 10)]))]])
    await writeStates(env.STORE, date, first)
    const reader = new StateShards()
    expect((await reader.read(env.STORE, date, [CODES[0]]))!.state(CODES[0])!.c).toEqual([10])
    const second = new Map([[CODES[0], encodeState(stateThrough([bar(date, 20)]))]])
    await writeStates(env.STORE, date, second)
    const keys = await keysUnder(`technicals/${date}`)
    expect(keys.length).toBe(2) // the index and the second set's one shard
    expect(keys).not.toContain(technicalsStateKey(date))
    // the index is checked again after a minute; the new set's shard is another key
    expect((await reader.read(env.STORE, date, [CODES[0]], Date.now() + 120_000))!.state(CODES[0])!.c).toEqual([20])
  })
})
