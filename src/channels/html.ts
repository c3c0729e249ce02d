/**
 * A small, strict reader of server-rendered HTML (HKEXnews' CCASS pages, Eastmoney's report pages): form inputs by name,
 * elements by tag and class token or id (with their inner HTML, nesting of the same tag counted),
 * and an element's text. Attributes may come in any order, quoted either way; whitespace and
 * letter case of tags do not matter. Comments and scripts are dropped first. Not a general HTML
 * parser: enough for pages whose class names are the contract.
 */

/** One element found: its attributes (names in lower case) and its inner HTML. */
export interface Element {
  attrs: Record<string, string>
  inner: string
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', ldquo: '“', rdquo: '”', hellip: '…', mdash: '—' }

/** Decodes the character references a server-rendered page uses (named basics, decimal, hex). */
export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (all, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10)
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : all
    }
    return ENTITIES[ref.toLowerCase()] ?? all
  })
}

/** Removes comments, scripts and styles, whose text could look like markup. */
function stripNoise(html: string): string {
  return html.replace(/<!--[\s\S]*?-->/g, '').replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, '')
}

const ATTR = /([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g

/** The attributes of one start tag's attribute text, names lower-cased, values decoded. */
function parseAttrs(text: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const m of text.matchAll(ATTR)) {
    const name = m[1].toLowerCase()
    if (!(name in out)) out[name] = decodeEntities(m[2] ?? m[3] ?? m[4] ?? '')
  }
  return out
}

/** Every `<input>`'s value by its name (the first of a name wins); inputs without a name are left out. */
export function inputs(html: string): Map<string, string> {
  const out = new Map<string, string>()
  for (const m of stripNoise(html).matchAll(/<input\b([^>]*)>/gi)) {
    const a = parseAttrs(m[1])
    if (a.name !== undefined && !out.has(a.name)) out.set(a.name, a.value ?? '')
  }
  return out
}

/** True when the attribute `class` holds the token `cls`. */
export const hasClass = (attrs: Record<string, string>, cls: string) => (attrs.class ?? '').split(/\s+/).includes(cls)

/**
 * The `tag` elements of `html` whose attributes satisfy `match`, in document order, each with its
 * inner HTML up to its own closing tag. An element that never closes throws: the page is cut.
 */
function elements(html: string, tag: string, match: (attrs: Record<string, string>) => boolean): Element[] {
  const src = stripNoise(html)
  const token = new RegExp(`<(/?)${tag}\\b([^>]*)>`, 'gi')
  const out: Element[] = []
  for (const m of src.matchAll(token)) {
    if (m[1] || /\/\s*$/.test(m[2])) continue
    const attrs = parseAttrs(m[2])
    if (!match(attrs)) continue
    const start = m.index! + m[0].length
    const scan = new RegExp(token.source, 'gi')
    scan.lastIndex = start
    let depth = 1
    let end = -1
    for (let t = scan.exec(src); t; t = scan.exec(src)) {
      if (t[1]) depth--
      else if (!/\/\s*$/.test(t[2])) depth++
      if (depth === 0) {
        end = t.index
        break
      }
    }
    if (end < 0) throw new Error(`<${tag}> ${JSON.stringify(attrs.class ?? attrs.id ?? '')} never closes`)
    out.push({ attrs, inner: src.slice(start, end) })
  }
  return out
}

/** Every `tag` element. */
export const byTag = (html: string, tag: string) => elements(html, tag, () => true)

/** The `tag` elements carrying the class token `cls`. */
export const byClass = (html: string, tag: string, cls: string) => elements(html, tag, (a) => hasClass(a, cls))

/** The `tag` element with the id `id`, if any. */
export const byId = (html: string, tag: string, id: string): Element | undefined => elements(html, tag, (a) => a.id === id)[0]

/** An element's text: tags dropped, references decoded, runs of whitespace one space, trimmed. */
export function textOf(inner: string): string {
  return decodeEntities(stripNoise(inner).replace(/<[^>]*>/g, ' ')).replace(/\s+/g, ' ').trim()
}
