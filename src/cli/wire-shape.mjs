// @ts-check
// The structure of an upstream answer, and how two answers' structures differ: what holds the
// emulator to the real captures (src/data/upstreams), and what `npm run smoke` checks the live
// hosts with. One comparator for every format the hosts speak: JSON, JSONP (`cb({…})`,
// `var x=({…})`), Tencent's `v_code="a~b~…";` lines and Sina's `var hq_str_code="a,b,…";` lines.
// Values are reduced to classes (integer, decimal with its places, date, time stamp form, the
// sentinels `-` and empty, null), so two answers of different days compare equal when their
// form is the same.

/**
 * @typedef {{ kind: 'json' | 'lines' | 'html' | 'text', charset: string, root: Shape }} WireShape
 * @typedef {{ classes: Set<string>, keys?: Map<string, Shape>, items?: Shape, widths?: Set<number>, fields?: Shape[] }} Shape
 */

const DATE = /^\d{4}-\d{2}-\d{2}$/
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2})?(\.\d+)?([+-]\d{2}:?\d{2}|Z)?$/
const DATE_MINUTE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/
const COMPACT_STAMP = /^(19|20)\d\d(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])([01]\d|2[0-3])[0-5]\d[0-5]\d$/
const COMPACT_DATE = /^(19|20)\d\d(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])$/
const CLOCK = /^\d{2}:\d{2}(:\d{2})?$/
const NUMBER = /^[+-]?\d+(\.\d+)?$/

/** The class of a text value: its form, not its content. @param {string} s */
function textClass(s) {
  if (s === '') return 'empty'
  if (s === '-' || s === '--') return `sentinel:${s}`
  if (DATE_MINUTE.test(s)) return 'date-minute'
  if (DATE.test(s)) return 'date'
  if (DATE_TIME.test(s)) return `datetime:${s.length}`
  if (COMPACT_STAMP.test(s)) return 'stamp14'
  if (COMPACT_DATE.test(s)) return 'yyyymmdd'
  if (CLOCK.test(s)) return `clock:${s.length}`
  if (NUMBER.test(s)) return numberClass(s, 'text-')
  return 'text'
}

/** `int`, or `dec:N` for N decimal places as written; with a prefix for numbers sent as text. @param {string} written */
function numberClass(written, prefix = '') {
  const dot = written.indexOf('.')
  return dot < 0 ? `${prefix}int` : `${prefix}dec:${written.length - dot - 1}`
}

/** @returns {Shape} */
const empty = () => ({ classes: new Set() })

/**
 * Folds one plain value into `shape` ({@link foldMarked} walks arrays and objects): a text holding a
 * comma-separated row (Eastmoney's K-lines) keeps its width and per-field classes; `raw` is the
 * number as written in the source text, when known.
 * @param {Shape} shape @param {unknown} value @param {string} [raw]
 */
function fold(shape, value, raw) {
  if (value === null) shape.classes.add('null')
  else if (typeof value === 'number') shape.classes.add(numberClass(raw ?? String(value)))
  else if (typeof value === 'boolean') shape.classes.add('boolean')
  else if (typeof value === 'string') {
    const parts = value.split(',')
    if (parts.length >= 4 && parts.every((p) => p.length < 40)) foldRow(shape, parts, 'row')
    else shape.classes.add(textClass(value))
  }
}

/** @param {Shape} shape @param {string[]} parts @param {string} cls */
function foldRow(shape, parts, cls) {
  shape.classes.add(cls)
  shape.widths ??= new Set()
  shape.widths.add(parts.length)
  const fields = (shape.fields ??= [])
  parts.forEach((p, i) => {
    fields[i] ??= empty()
    fields[i].classes.add(textClass(p))
  })
}

/**
 * JSON.parse that remembers how each number was written (`1.50` keeps its two places), by
 * wrapping every number literal in a marker string before parsing.
 * @param {string} text
 */
function parseKeepingNumbers(text) {
  const marked = text.replace(/("(?:[^"\\]|\\.)*")|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/g, (m, str, num) => (str ? str : `"\\u0000${num}"`))
  return JSON.parse(marked, (_k, v) => (typeof v === 'string' && v.startsWith('\u0000') ? { __num: v.slice(1) } : v))
}

/** Folds a value parsed by {@link parseKeepingNumbers}: arrays merge their items into one shape, objects keep a shape per key. @param {Shape} shape @param {any} value */
function foldMarked(shape, value) {
  if (value && typeof value === 'object' && !Array.isArray(value) && '__num' in value && Object.keys(value).length === 1) {
    fold(shape, Number(value.__num), value.__num)
  } else if (Array.isArray(value)) {
    shape.classes.add('array')
    shape.items ??= empty()
    for (const v of value) foldMarked(shape.items, v)
  } else if (value && typeof value === 'object') {
    shape.classes.add('object')
    shape.keys ??= new Map()
    for (const [k, v] of Object.entries(value)) {
      let sub = shape.keys.get(k)
      if (!sub) shape.keys.set(k, (sub = empty()))
      foldMarked(sub, v)
    }
  } else fold(shape, value)
}

/** The JSON inside a JSONP wrapper (`cb(…)`, `var x=(…);`, `=(…);`, `/*<script>…*\/ cb(…)`), or the text itself. @param {string} text */
function unwrapJsonp(text) {
  const t = text.trim().replace(/^\/\*[\s\S]*?\*\/\s*/, '')
  if (t.startsWith('{') || t.startsWith('[')) return t
  const m = /^(?:(?:var\s+)?[\w$.]*\s*=\s*)?(?:[\w$.]*\s*\()?([\s\S]*?)\)?\s*;?\s*$/.exec(t)
  return m ? m[1].trim() : t
}

/**
 * One quote statement, `var hq_str_x="…";` or `v_x="…";`; the hosts end each with a line break, some
 * published captures with `; `. Names may hold a dot, as US share classes do (`v_usBRK.B`, `hq_str_gb_brk.b`).
 */
const STATEMENT = /(?:var\s+)?([\w$.]+)\s*=\s*"([^"]*)"\s*;?/g

/**
 * The structure of one answer: its body's bytes and its content type (or the charset the host
 * sends, for a capture saved without headers).
 * @param {Uint8Array} bytes @param {string} contentType
 * @returns {WireShape}
 */
export function shapeOf(bytes, contentType) {
  const charset = (/charset=([\w-]+)/i.exec(contentType)?.[1] ?? 'utf-8').toLowerCase().replace(/^gb2312$|^gb18030$/, 'gbk')
  return shapeOfText(new TextDecoder(charset === 'gbk' ? 'gbk' : 'utf-8').decode(bytes), charset)
}

/**
 * The structure of an answer already decoded: for a capture its source kept as text, with the
 * charset the host sends it in.
 * @param {string} text @param {string} charset
 * @returns {WireShape}
 */
export function shapeOfText(text, charset) {
  const root = empty()
  const statements = [...text.matchAll(STATEMENT)]
  if (statements.length && text.replace(STATEMENT, '').trim() === '') {
    for (const [, , body] of statements) {
      const sep = body.includes('~') ? '~' : ','
      foldRow(root, body === '' ? [] : body.split(sep), sep === '~' ? 'tilde-line' : 'comma-line')
    }
    return { kind: 'lines', charset, root }
  }
  // A capture that kept only one statement's body (`龙芯中科,106.000,…,00,`): one row of that line.
  const bare = text.trim()
  if (!/["=\n{[<]/.test(bare) && bare.split(/[~,]/).length >= 20) {
    const sep = bare.includes('~') ? '~' : ','
    foldRow(root, bare.split(sep), sep === '~' ? 'tilde-line' : 'comma-line')
    return { kind: 'lines', charset, root }
  }
  if (/^\s*</.test(text)) {
    root.classes.add('html')
    return { kind: 'html', charset, root }
  }
  try {
    foldMarked(root, parseKeepingNumbers(unwrapJsonp(text)))
    return { kind: 'json', charset, root }
  } catch {
    root.classes.add(textClass(text.trim()))
    return { kind: 'text', charset, root }
  }
}

/** Places of `dec:N` classes in a set (text-born or not), largest. @param {Set<string>} classes */
function maxPlaces(classes) {
  let n = -1
  for (const c of classes) {
    const m = /dec:(\d+)$/.exec(c)
    if (m) n = Math.max(n, +m[1])
  }
  return n
}

/** Classes with decimal places stripped, so `dec:2` and `dec:3` are both `dec`. */
const kinds = (/** @type {Set<string>} */ classes) => new Set([...classes].map((c) => c.replace(/dec:\d+$/, 'dec')))

/** Number classes are one family: an integer may be written where a decimal is (`0` for `0.00`). */
const family = (/** @type {string} */ c) => (/^(text-)?(int|dec)$/.test(c) ? (c.startsWith('text-') ? 'text-number' : 'number') : c)

/**
 * How `candidate` (the emulator's answer, or a live one) departs from `reference` (the real
 * capture): keys the reference lacks, value classes it never has, wider decimals, other row
 * widths, another charset or format. Keys the candidate lacks are not differences: a capture may
 * hold optional parts. Empty when the candidate speaks the reference's form.
 * @param {WireShape} reference @param {WireShape} candidate
 * @returns {string[]}
 */
export function shapeDifferences(reference, candidate) {
  const out = []
  if (reference.kind !== candidate.kind) return [`format: ${candidate.kind}, the real host sends ${reference.kind}`]
  if (reference.charset !== candidate.charset) out.push(`charset: ${candidate.charset}, the real host sends ${reference.charset}`)
  compare(reference.root, candidate.root, '$', out)
  return out
}

/** @param {Shape} ref @param {Shape} got @param {string} path @param {string[]} out */
function compare(ref, got, path, out) {
  const refFamilies = new Set([...kinds(ref.classes)].map(family))
  const alien = [...got.classes].filter((c) => {
    const f = family(c.replace(/dec:\d+$/, 'dec'))
    return !refFamilies.has(f) && f !== 'null' && !f.startsWith('sentinel') && f !== 'empty'
  })
  if (alien.length && refFamilies.size) out.push(`${path}: ${alien.sort().join(', ')}, the real host sends ${[...ref.classes].sort().join(', ')}`)
  // Decimals: a number sent as text has a fixed form (`"6.10"`), so more places than the capture's
  // is a difference. A JSON number is written in its shortest form (6.1), so one capture's few
  // values say little: more places count only past the two the capture shows.
  const refPlaces = maxPlaces(ref.classes)
  const gotPlaces = maxPlaces(got.classes)
  const asText = [...got.classes].some((c) => c.startsWith('text-dec'))
  if (refPlaces >= 0 && gotPlaces > refPlaces && (asText || refPlaces >= 2)) out.push(`${path}: ${gotPlaces} decimals, the real host sends at most ${refPlaces}`)
  if (got.keys && ref.keys) {
    for (const [k, sub] of got.keys) {
      const r = ref.keys.get(k)
      if (!r) out.push(`${path}.${k}: a key the real host does not send`)
      else compare(r, sub, `${path}.${k}`, out)
    }
  }
  if (got.items && ref.items) compare(ref.items, got.items, `${path}[]`, out)
  if (got.widths && ref.widths) {
    const widths = [...got.widths].filter((w) => !ref.widths?.has(w))
    if (widths.length) out.push(`${path}: rows of ${widths.join(', ')} fields, the real host sends ${[...ref.widths].join(', ')}`)
    got.fields?.forEach((f, i) => {
      const r = ref.fields?.[i]
      if (r) compare(r, f, `${path}[${i}]`, out)
    })
  }
}

/**
 * The part of `shape` at `path` (`result.data` keys, `[]` for an array's items): a capture that
 * keeps only part of an answer is compared with the same part of the other.
 * @param {WireShape} shape @param {string} path
 * @returns {WireShape}
 */
export function partOf(shape, path) {
  let root = shape.root
  for (const step of path.split('.').filter(Boolean)) {
    for (const part of step.split(/(?=\[\])/)) {
      const next = part === '[]' ? root.items : root.keys?.get(part)
      if (!next) return { ...shape, root: { classes: new Set([`missing:${path}`]) } }
      root = next
    }
  }
  return { ...shape, root }
}
