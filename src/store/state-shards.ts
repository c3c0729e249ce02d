/**
 * A day's indicator states in shards by code (a whole market's states are some 22 MB of text;
 * no job step or request holds them all):
 *
 *   technicals/<date>.states/<gen>-<nnn>.txt  lines `<code>\t<state JSON>` of one code range, ascending
 *   technicals/<date>.states/index.json       { v, date, gen, rows, shards: [{ key, first, rows }] }
 *
 * Shard n holds the codes from its `first` up to the next shard's `first` (the ranges cut the
 * universe's sorted codes every {@link SHARD_ROWS}), so a reader finds a code's shard from the
 * index alone and reads only the shards of the codes it asks for. The index is written last:
 * it names the one complete set. A rewrite of the day is a new set (`gen`); the sets it replaces
 * are deleted once its index is written.
 */
import { mapLimit } from '../domain/concurrency'
import type { StepState } from '../domain/indicators/step-state'
import type { PickedStates } from './shapes'
import { statesIndexKey, statesPrefix, statesShardKey, technicalsStateKey } from './keys'
import { memoisedReader } from './memo-read'
import { pickStateLines, statesDay, statesText, type StatesDay } from './technicals-state'
import { cacheKind } from '../runtime/isolate-caches'

/** Codes per shard: some 1 MB of text. */
export const SHARD_ROWS = 250

/** Shards kept parsed per isolate (the latest day's, a few MB). */
const SHARDS_KEPT = 8

/** Shards read at once by one call. */
const READ_CONCURRENCY = 4

export interface StatesIndex {
  v: 1
  date: string
  gen: string
  /** States in all shards. */
  rows: number
  /** Ascending by `first`; a shard without a state is left out. */
  shards: Array<{ key: string; first: string; rows: number }>
}

/** The first code of each shard when `codes` (ascending) are cut every `size`. */
export function shardFirsts(codes: readonly string[], size = SHARD_ROWS): string[] {
  const firsts: string[] = []
  for (let i = 0; i < codes.length; i += size) firsts.push(codes[i])
  return firsts
}

/**
 * The shard (index into `firsts`, ascending) whose range holds `code`: the last one starting at
 * or before it; a code before the first range goes to the first shard.
 */
export function shardOf(firsts: readonly string[], code: string): number {
  let lo = 0
  let hi = firsts.length - 1
  let found = 0
  while (lo <= hi) {
    const mid = (lo + hi) >> 1
    if (firsts[mid] <= code) {
      found = mid
      lo = mid + 1
    } else hi = mid - 1
  }
  return found
}

/** `codes` grouped by the shard of `index` that holds each (shard position → its codes). */
export function codesByShard(index: Pick<StatesIndex, 'shards'>, codes: Iterable<string>): Map<number, string[]> {
  const firsts = index.shards.map((s) => s.first)
  const out = new Map<number, string[]>()
  if (firsts.length === 0) return out
  for (const code of codes) {
    const n = shardOf(firsts, code)
    let list = out.get(n)
    if (!list) out.set(n, (list = []))
    list.push(code)
  }
  return out
}

/** What a finished set wrote. */
export interface StatesWritten {
  rows: number
  bytes: number
  shards: number
}

/**
 * Writes a day's states as they come, holding a shard or two at a time: the ranges are fixed up
 * front from `codes` (the universe, ascending), and a shard is written once each of its codes has
 * a state, or once a state two shards further on arrives (the rest at {@link StatesWriter.finish}).
 * So the states must come in code order give or take less than a shard: the jobs read their
 * staged rows chunk by chunk, each chunk's stocks in the order they finished. A state for a code
 * whose shard is written already is dropped (a stock staged twice after a retried run: the same
 * state); a code outside the universe joins the range that holds it.
 */
export class StatesWriter {
  private readonly firsts: string[]
  /** Per shard: the codes it expects, and the states held until it is written. */
  private readonly expected: number[]
  private readonly open: Array<Map<string, string> | null>
  private readonly written: StatesIndex['shards'] = []
  private bytes = 0
  private rows = 0
  private dropped = 0
  /** Shards before this one are written (or had no state). */
  private settled = 0

  /** Names this set's shards: unique to each writer, so a parsed shard kept by key never goes stale. */
  private readonly gen = `${Date.now().toString(36)}${crypto.randomUUID().slice(0, 6)}`

  constructor(
    private readonly bucket: R2Bucket,
    readonly date: string,
    codes: readonly string[]
  ) {
    this.firsts = shardFirsts(codes)
    this.expected = this.firsts.map((_, n) => Math.min(SHARD_ROWS, codes.length - n * SHARD_ROWS))
    this.open = this.firsts.map(() => new Map())
  }

  /** Adds the state JSON of `code`; resolves once a shard it completed is written. */
  async add(code: string, json: string): Promise<void> {
    if (this.firsts.length === 0) {
      this.firsts.push('')
      this.expected.push(Infinity)
      this.open.push(new Map())
    }
    const n = shardOf(this.firsts, code)
    for (; this.settled < n - 1; this.settled++) {
      if (this.open[this.settled]?.size) await this.write(this.settled)
      else this.open[this.settled] = null
    }
    const held = this.open[n]
    if (!held) {
      this.dropped++
      return
    }
    held.set(code, json)
    if (held.size >= this.expected[n]) await this.write(n)
  }

  /**
   * Writes the open shards and then the index; returns what the set holds. A writer given no
   * state writes nothing (a backfill's older table days carry none) and leaves the day as it was.
   */
  async finish(): Promise<StatesWritten> {
    if (this.rows === 0 && this.open.every((held) => !held?.size)) return { rows: 0, bytes: 0, shards: 0 }
    for (let n = 0; n < this.open.length; n++) if (this.open[n]?.size) await this.write(n)
    const shards = [...this.written].sort((a, b) => (a.first < b.first ? -1 : 1))
    const index: StatesIndex = { v: 1, date: this.date, gen: this.gen, rows: this.rows, shards }
    await this.bucket.put(statesIndexKey(this.date), JSON.stringify(index), { httpMetadata: { contentType: 'application/json' } })
    await deleteOtherSets(this.bucket, this.date, new Set(shards.map((s) => s.key)))
    await this.bucket.delete(technicalsStateKey(this.date)) // the one-file layout of the day, if it was written so before
    if (this.dropped) console.warn(`states of ${this.date}: ${this.dropped} states came after their shard was written and were dropped`)
    return { rows: this.rows, bytes: this.bytes, shards: shards.length }
  }

  private async write(n: number) {
    const held = this.open[n]!
    this.open[n] = null
    const key = statesShardKey(this.date, this.gen, n)
    const text = statesText(held)
    await this.bucket.put(key, text, { httpMetadata: { contentType: 'text/plain' }, customMetadata: { rows: String(held.size) } })
    this.written.push({ key, first: this.firsts[n], rows: held.size })
    this.rows += held.size
    this.bytes += text.length
  }
}

/** Writes a day's whole set from `states` (code → state JSON) at once (the benchmark's tables, tests). */
export async function writeStates(bucket: R2Bucket, date: string, states: ReadonlyMap<string, string>): Promise<StatesWritten> {
  const writer = new StatesWriter(bucket, date, [...states.keys()].sort())
  for (const [code, json] of states) await writer.add(code, json)
  return writer.finish()
}

/** Deletes the shards of `date` that are not in `keep` (the sets a new index replaced). */
async function deleteOtherSets(bucket: R2Bucket, date: string, keep: ReadonlySet<string>) {
  const index = statesIndexKey(date)
  let cursor: string | undefined
  const stale: string[] = []
  do {
    const page = await bucket.list({ prefix: statesPrefix(date), cursor })
    for (const o of page.objects) if (o.key !== index && !keep.has(o.key)) stale.push(o.key)
    cursor = page.truncated ? page.cursor : undefined
  } while (cursor)
  for (let i = 0; i < stale.length; i += 1000) await bucket.delete(stale.slice(i, i + 1000))
}

/**
 * The indicator states of a day, read shard by shard (one reader per `Services`, its store facade;
 * a job may use its own): each day's index is read once and rechecked each minute (a backfill may
 * rewrite a day); parsed shards are kept by key, and a key names one immutable set, so a kept shard
 * never goes stale.
 */
export class StateShards {
  private readIndex = StateShards.indexReader()
  private readonly kept = new Map<string, StatesDay>()

  private static indexReader() {
    return memoisedReader(async (obj) => (await obj.json()) as StatesIndex, 2)
  }

  /**
   * The states of `codes` after `date`, reading only the shards that hold them (dates written in one
   * file before the shards: that file streamed, keeping those lines only); undefined when the day
   * has no states at all.
   */
  async read(bucket: R2Bucket, date: string, codes: readonly string[], now = Date.now()): Promise<PickedStates | undefined> {
    const index = await this.readIndex(bucket, statesIndexKey(date), now)
    if (!index) {
      const old = await bucket.get(technicalsStateKey(date))
      if (!old) return undefined
      const picked = await pickStateLines(old.body, codes)
      const day = statesDay(date, picked.text)
      return { date, size: picked.lines, state: (code) => day.state(code) }
    }
    const out = new Map<string, StepState | undefined>()
    await mapLimit([...codesByShard(index, codes)], READ_CONCURRENCY, async ([n, group]) => {
      const shard = await this.readShard(bucket, date, index.shards[n].key)
      for (const code of group) out.set(code, shard?.state(code))
    })
    return { date, size: index.rows, state: (code) => out.get(code) }
  }

  private async readShard(bucket: R2Bucket, date: string, key: string): Promise<StatesDay | undefined> {
    const hit = this.kept.get(key)
    if (hit) {
      this.kept.delete(key) // to the end: least recently used first
      this.kept.set(key, hit)
      return hit
    }
    const obj = await bucket.get(key)
    if (!obj) return undefined // a set replaced meanwhile: those stocks take the whole-history path
    const day = statesDay(date, await obj.text())
    this.kept.set(key, day)
    while (this.kept.size > SHARDS_KEPT) this.kept.delete(this.kept.keys().next().value!)
    return day
  }

  /** Forgets the parsed shards and indexes (`Services.reset()`). */
  clear(): void {
    this.kept.clear()
    this.readIndex = StateShards.indexReader()
  }
}

/** The indicator-state shards of this isolate (one copy per `Services`, its store facade). */
export const STATE_SHARDS = cacheKind('indicator-state shards', () => new StateShards(), (s) => s.clear())
