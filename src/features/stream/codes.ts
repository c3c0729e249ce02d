import { parseSymbol, SymbolError } from '../../domain/symbols'

/** Prefixes a stream carries: the A-share exchanges (stocks, indexes, ETFs, bonds), whose phases it reports. */
const STREAM_PREFIXES = new Set(['sh', 'sz', 'bj'])

/** A stream's codes, canonical and without repeats, or why some were refused. */
export function parseStreamCodes(raw: string): { codes: string[]; errors: string[] } {
  const codes: string[] = []
  const errors: string[] = []
  for (const part of raw.split(',').map((s) => s.trim()).filter(Boolean)) {
    try {
      const i = parseSymbol(part)
      if (!STREAM_PREFIXES.has(i.prefix)) errors.push(`${part}: streams carry A-share codes (sh, sz, bj)`)
      else if (!codes.includes(i.code)) codes.push(i.code)
    } catch (e) {
      if (!(e instanceof SymbolError)) throw e
      errors.push(e.message)
    }
  }
  return { codes, errors }
}
