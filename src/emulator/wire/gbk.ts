/**
 * A GBK encoder for the emulator's Tencent and Sina text responses. Workers can decode GBK but not
 * encode it, so the table is the inverse of workerd's own `TextDecoder('gbk')` over every
 * double-byte sequence, built on first use (a few ms, once per isolate).
 */

let table: Map<number, number> | undefined

function buildTable(): Map<number, number> {
  const map = new Map<number, number>()
  const dec = new TextDecoder('gbk')
  const pair = new Uint8Array(2)
  for (let lead = 0x81; lead <= 0xfe; lead++) {
    for (let trail = 0x40; trail <= 0xfe; trail++) {
      if (trail === 0x7f) continue
      pair[0] = lead
      pair[1] = trail
      const ch = dec.decode(pair)
      // Unassigned sequences decode to U+FFFD; the first sequence for a character is canonical.
      if (ch.length !== 1 || ch === '\ufffd') continue
      const code = ch.charCodeAt(0)
      if (!map.has(code)) map.set(code, (lead << 8) | trail)
    }
  }
  return map
}

/**
 * Encodes text as GBK bytes. ASCII passes through; a character GBK cannot express becomes `?`,
 * as a GBK web server would print it.
 */
export function encodeGbk(text: string): Uint8Array {
  table ??= buildTable()
  const out = new Uint8Array(text.length * 2)
  let n = 0
  for (const ch of text) {
    const c = ch.codePointAt(0)!
    if (c < 0x80) {
      out[n++] = c
      continue
    }
    const bytes = table.get(c)
    if (bytes === undefined) {
      out[n++] = 0x3f
      continue
    }
    out[n++] = bytes >> 8
    out[n++] = bytes & 0xff
  }
  return out.slice(0, n)
}
