import type { Instrument, InstrumentKind } from '../../domain/instrument'
import { parseSymbol, SymbolError } from '../../domain/symbols'
import { queryIssue, ValidationError, type ValidationIssue } from '../../http/validation'

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
 * The one instrument a per-stock endpoint's `code` names (SPEC: one stock per call), of one of the
 * `allowed` kinds; otherwise the 422 issue on `code` saying what it is and what the endpoint serves.
 */
export function oneStockOrIssue(code: string, endpoint: string, allowed: readonly InstrumentKind[] = ['stock']): Instrument | ValidationIssue {
  const serves = `/v1/${endpoint} serves ${allowed.map((k) => KIND_NAME[k].replace(/^an? /, '')).join(' and ')} codes with their prefix, one per call, e.g. sh600519, sz000001, bj920001`
  if (code.includes(',')) return queryIssue('code', `one code per call; ${serves}`, code)
  let inst: Instrument
  try {
    inst = parseSymbol(code)
  } catch (e) {
    if (!(e instanceof SymbolError)) throw e
    return queryIssue('code', `${e.message}. ${serves}`, code)
  }
  if (!allowed.includes(inst.kind)) return queryIssue('code', `${inst.code} is ${KIND_NAME[inst.kind]}; ${serves}`, code)
  return inst
}

export const isIssue = (x: Instrument | ValidationIssue): x is ValidationIssue => 'loc' in x

/** {@link oneStockOrIssue}, throwing the 422. */
export function oneStock(code: string, endpoint: string, allowed: readonly InstrumentKind[] = ['stock']): Instrument {
  const r = oneStockOrIssue(code, endpoint, allowed)
  if (isIssue(r)) throw new ValidationError([r])
  return r
}
