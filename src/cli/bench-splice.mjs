// `npm run bench`, splice rows (BENCH_ONLY=splice for these alone): the answers put together from
// parts by src/http/json-splice.ts, against `JSON.stringify` of the whole answer (and its UTF-8
// encoding where the route answers bytes), in this Node process, each pair alternated round after
// round under the same load. Each row's parts are what the route holds when it answers: the items'
// bytes of a day's table (technical-batch), a kept anonymous answer's text, a shared answer's
// envelope tail kept as bytes (hot); the whole is what answering without them would cost.
import { build } from 'esbuild'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { ROOT } from './harness.mjs'
import { median, ROUNDS } from './bench-rounds.mjs'

/** Milliseconds each side of a pair is timed for, in each round. */
const SLICE_MS = Number(process.env.BENCH_SPLICE_MS || 400)

const utf8 = new TextEncoder()
const text = (v) => (typeof v === 'string' ? v : new TextDecoder().decode(v))

/** A technical row as the day's table serves it: some fifty numbers, a name. */
function technicalItem(i) {
  const data = { code: `sh${600000 + i}`, name: i % 2 ? '贵州茅台' : 'Ping "An" \\ Bank', date: '2026-11-20' }
  for (let k = 0; k < 50; k++) data[`c${k}`] = Math.round(((i * 7919 + k * 104729) % 100000) / 7) / 100
  return { code: data.code, ok: true, data }
}

const envelopeOf = (data, extra = {}) => ({ ok: true, endpoint: 'technical-batch', tier: 'pro', elapsed_ms: 12, source: 'store', data, ...extra })

/** Calls of `fn` a millisecond over `ms`. */
function rate(fn, ms) {
  let n = 0
  const t0 = performance.now()
  let t = t0
  while (t - t0 < ms) {
    for (let k = 0; k < 4; k++) fn()
    n += 4
    t = performance.now()
  }
  return n / (t - t0)
}

export async function spliceBench() {
  const out = join(ROOT, '.bench/json-splice.mjs')
  await build({ entryPoints: [join(ROOT, 'src/http/json-splice.ts')], bundle: true, format: 'esm', platform: 'neutral', outfile: out, logLevel: 'silent' })
  const { asciiHeadBefore, headThrough, slotIn, slotOf, spliceBytes, tailAfter, tailWith } = await import(pathToFileURL(out).href)

  const items = Array.from({ length: 1000 }, (_, i) => technicalItem(i))
  const itemBytes = items.map((x) => utf8.encode(JSON.stringify(x)))
  const batchExtra = { date: '2026-11-20', requested: 1000, returned: 1000, failed: 0 }

  const bars = Array.from({ length: 250 }, (_, i) => ({ date: `2026-${String(1 + (i % 12)).padStart(2, '0')}-10`, open: 1500 + i / 3, close: 1501.25, high: 1510, low: 1490.5, volume: 31415 + i, amount: 4.7e9 + i }))
  const kept = JSON.stringify({ ok: true, endpoint: 'kline', tier: 'free', elapsed_ms: 40, source: 'emulator:tencent', data: bars, as_of: '2026-11-20T10:30:00+08:00' })
  const keptValue = JSON.parse(kept)
  const keptSlot = slotIn(kept, keptValue, 'elapsed_ms')
  const keptTail = tailWith(keptSlot.tail, { cached: true })

  const hotRows = Array.from({ length: 100 }, (_, i) => ({ rank: i + 1, code: `sz${300000 + i}`, name: '宁德时代', price: 250.5 + i, change_pct: 1.23, popularity: 99000 - i }))
  const hotTail = utf8.encode(tailAfter({ source: 'emulator:eastmoney', data: hotRows, as_of: '2026-11-20T10:30:00+08:00' }))

  const rows = [
    {
      name: 'technical-batch, 1,000 items from the table',
      whole: () => utf8.encode(JSON.stringify(envelopeOf(items, batchExtra))),
      spliced: () => {
        const { head, tail } = slotOf(envelopeOf(null, batchExtra), 'data')
        return spliceBytes(`${head}[`, itemBytes, `]${tail}`, 44)
      },
    },
    {
      name: 'anonymous answer kept (250 bars), served again as UTF-8',
      whole: () => utf8.encode(JSON.stringify({ ...keptValue, elapsed_ms: 3, cached: true })),
      spliced: () => utf8.encode(`${keptSlot.head}3${keptTail}`),
    },
    {
      name: 'shared answer (/v1/hot, 100 rows), its envelope',
      whole: () => utf8.encode(JSON.stringify({ ok: true, endpoint: 'hot', tier: 'pro', elapsed_ms: 3, source: 'emulator:eastmoney', data: hotRows, as_of: '2026-11-20T10:30:00+08:00' })),
      spliced: () => asciiHeadBefore(`${headThrough({ ok: true, endpoint: 'hot', tier: 'pro' }, 'elapsed_ms')}3`, hotTail),
    },
  ]

  console.log(`\nsplice: answers put together from parts (src/http/json-splice.ts) against JSON.stringify of the whole answer; calls per ms, ${ROUNDS} rounds of ${SLICE_MS} ms a side, median`)
  for (const row of rows) {
    if (text(row.whole()) !== text(row.spliced())) throw new Error(`splice bench: ${row.name}: the spliced answer differs from JSON.stringify of the whole`)
    const whole = []
    const spliced = []
    for (let r = 0; r < ROUNDS; r++) {
      whole.push(rate(row.whole, SLICE_MS))
      spliced.push(rate(row.spliced, SLICE_MS))
    }
    const w = median(whole)
    const s = median(spliced)
    console.log(`  ${row.name}: whole ${(1000 / w).toFixed(1)} µs, spliced ${(1000 / s).toFixed(1)} µs: ${(s / w).toFixed(1)}× as many calls`)
  }
}
