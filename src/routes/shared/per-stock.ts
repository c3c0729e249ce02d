/**
 * Shared by the one-stock-per-call endpoints (finance, snapshot, orderbook): the `code` rule
 * (SPEC: code-per-call), the "not this market" answer for codes that are valid but not A-share
 * stocks (DESIGN §12).
 */
import { z } from '@hono/zod-openapi'
import type { Instrument, InstrumentKind } from '../../domain/instrument'
import { parseSymbol, SymbolError } from '../../domain/symbols'
import { queryIssue, ValidationError } from '../../http/validation'

/** The `code` query parameter of a one-stock endpoint. */
export const StockCodeParam = z
  .string({ error: 'code is required' })
  .openapi({ description: 'One A-share stock with its sh, sz or bj prefix (one code per call)', example: 'sh600519' })

/** The instrument `code` names; throws the 422 for several codes or a code that is not a code. */
export function oneCode(raw: string): Instrument {
  if (raw.includes(',')) throw new ValidationError([queryIssue('code', 'one code per call (this endpoint does not take a comma-separated list)', raw)])
  try {
    return parseSymbol(raw)
  } catch (e) {
    if (!(e instanceof SymbolError)) throw e
    throw new ValidationError([queryIssue('code', e.message, raw)])
  }
}

/** Why `inst` gets an empty answer from an A-share endpoint; undefined for a kind it serves (stocks unless told). */
export function notThisMarket(endpoint: string, inst: Instrument, kinds: readonly InstrumentKind[] = ['stock']): string | undefined {
  if (kinds.includes(inst.kind) && ['sh', 'sz', 'bj'].includes(inst.prefix)) return undefined
  const what = kinds.length === 1 ? 'A-share stocks' : `A-share ${kinds.map((k) => KIND_WORD[k]).join(', ')}`
  return `${endpoint} covers ${what} (sh, sz, bj) only; ${inst.code} is not one, so data is empty`
}

const KIND_WORD: Partial<Record<InstrumentKind, string>> = { stock: 'stocks', etf: 'ETFs', bond: 'convertible bonds' }
