import {
  convertIPv4BinaryToString,
  convertIPv4ToBinary,
  convertIPv6BinaryToString,
  convertIPv6ToBinary,
  distinctRemoteAddr,
  isIPv4MappedIPv6,
} from 'hono/utils/ipaddr'

/**
 * The canonical text of an IPv4 or IPv6 address (IPv6 compressed and lower-case, IPv4-mapped IPv6
 * as IPv4), or null when `raw` is not an address. Allow-list entries and the caller's address are
 * compared in this form, so `2001:DB8::1` and `2001:db8:0:0:0:0:0:1` are the same entry.
 */
export function canonicalIp(raw: string): string | null {
  let known = recent.get(raw)
  if (known === undefined) {
    if (recent.size >= 10_000) recent.clear()
    recent.set(raw, (known = convert(raw)))
  }
  return known
}

/** Recent answers: a caller's address repeats on every call, and the conversion goes through BigInt. */
const recent = new Map<string, string | null>()

function convert(raw: string): string | null {
  const s = raw.trim()
  try {
    const family = distinctRemoteAddr(s)
    if (family === 'IPv4') return convertIPv4BinaryToString(convertIPv4ToBinary(s))
    if (family === 'IPv6') {
      const bin = convertIPv6ToBinary(s)
      return isIPv4MappedIPv6(bin) ? convertIPv4BinaryToString(bin & 0xffffffffn) : convertIPv6BinaryToString(bin)
    }
  } catch {
    // Hono's parsers throw on malformed input; that is simply "not an address".
  }
  return null
}
