/**
 * The `code` of the one-stock endpoints (one code per call): one parse and one 422 for several
 * codes or a code that is not a code, then each endpoint's policy for the kinds it does not serve:
 * a 422 naming what it serves (oneStock), or an empty answer with a notice (notThisMarket).
 */
import { z } from '@hono/zod-openapi'
import type { Instrument, InstrumentKind } from '../../domain/instrument'
import { parseSymbol, SymbolError } from '../../domain/symbols'
import { queryIssue, ValidationError, type ValidationIssue } from '../../http/validation'

/** The `code` query parameter of a one-stock endpoint. */
export const StockCodeParam = z
  .string({ error: 'code is required' })
  .openapi({ description: 'One A-share stock with its sh, sz or bj prefix (one code per call)', example: 'sh600519' })

/**
 * The instrument `code` names, or the 422 issue for several codes or a code that is not a code;
 * `serves` (what the endpoint serves, in words) ends the message when given.
 */
function oneCodeOrIssue(code: string, serves?: string): Instrument | ValidationIssue {
  if (code.includes(',')) return queryIssue('code', serves ? `one code per call; ${serves}` : 'one code per call (this endpoint does not take a comma-separated list)', code)
  try {
    return parseSymbol(code)
  } catch (e) {
    if (!(e instanceof SymbolError)) throw e
    return queryIssue('code', serves ? `${e.message}. ${serves}` : e.message, code)
  }
}

export const isIssue = (x: Instrument | ValidationIssue): x is ValidationIssue => 'loc' in x

/** The instrument `code` names, of any kind; throws the 422 for several codes or a code that is not a code. */
export function oneCode(raw: string): Instrument {
  const r = oneCodeOrIssue(raw)
  if (isIssue(r)) throw new ValidationError([r])
  return r
}

/** What a refused code is, in the words of the 422. */
const KIND_NAME: Record<InstrumentKind, string> = {
  stock: 'an A-share stock',
  index: 'an index',
  etf: 'an ETF',
  bond: 'a convertible bond',
  sector: 'a sector',
  hk: 'a Hong Kong stock',
  us: 'a US stock',
  'us-index': 'a US index',
  future: 'a futures contract',
  forex: 'a forex pair',
}

/**
 * The one instrument a per-stock endpoint's `code` names, of one of the `allowed` kinds; otherwise
 * the 422 issue on `code` saying what it is and what the endpoint serves.
 */
export function oneStockOrIssue(code: string, endpoint: string, allowed: readonly InstrumentKind[] = ['stock']): Instrument | ValidationIssue {
  const serves = `/v1/${endpoint} serves ${allowed.map((k) => KIND_NAME[k].replace(/^an? /, '')).join(' and ')} codes with their prefix, one per call, e.g. sh600519, sz000001, bj920001`
  const inst = oneCodeOrIssue(code, serves)
  if (isIssue(inst)) return inst
  if (!allowed.includes(inst.kind)) return queryIssue('code', `${inst.code} is ${KIND_NAME[inst.kind]}; ${serves}`, code)
  return inst
}

/** {@link oneStockOrIssue}, throwing the 422. */
export function oneStock(code: string, endpoint: string, allowed: readonly InstrumentKind[] = ['stock']): Instrument {
  const r = oneStockOrIssue(code, endpoint, allowed)
  if (isIssue(r)) throw new ValidationError([r])
  return r
}

/** Why `inst` gets an empty answer from an A-share endpoint; undefined for a kind it serves (stocks unless told). */
export function notThisMarket(endpoint: string, inst: Instrument, kinds: readonly InstrumentKind[] = ['stock']): string | undefined {
  if (kinds.includes(inst.kind) && ['sh', 'sz', 'bj'].includes(inst.prefix)) return undefined
  const what = kinds.length === 1 ? 'A-share stocks' : `A-share ${kinds.map((k) => KIND_WORD[k]).join(', ')}`
  return `${endpoint} covers ${what} (sh, sz, bj) only; ${inst.code} is not one, so data is empty`
}

const KIND_WORD: Partial<Record<InstrumentKind, string>> = { stock: 'stocks', etf: 'ETFs', bond: 'convertible bonds' }
