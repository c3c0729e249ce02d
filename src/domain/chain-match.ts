/**
 * How a chain node's rule (src/data/industry-chains) selects stocks from upstream data:
 *  - boards named, no keywords: every member of those boards (relevance unknown: null);
 *  - boards and keywords: the boards' members whose latest composition has a product line
 *    naming a keyword;
 *  - keywords alone: every stock whose composition is held and names a keyword.
 * Relevance is the summed revenue share (0..1) of the product lines that name a keyword.
 * Keywords match as substrings of the item name (`正极材料` matches `三元正极材料`).
 */
import type { NodeRule } from '../data/industry-chains'

/** A composition as the job keeps it: the latest report's product lines. */
export interface HeldComposition {
  reportDate: string
  products: Array<{ name: string; ratio: number }>
}

export interface MatchInput {
  /** Board name → member codes, per kind. */
  industries: ReadonlyMap<string, readonly string[]>
  concepts: ReadonlyMap<string, readonly string[]>
  /** Code → composition (null: the page had none). Codes absent were not fetched yet. */
  compositions: ReadonlyMap<string, HeldComposition | null>
}

export interface NodeMember {
  code: string
  /** Share of revenue from the node's business, 0..1, 4 decimals; null when the rule is boards only. */
  relevance: number | null
  /** What found it: `board:<name>` or `keyword:<word>` (the first that did). */
  via: string
}

const round4 = (x: number) => Math.round(x * 1e4) / 1e4

/** The share of `comp`'s revenue in lines naming a keyword, and the first keyword that matched; null when none does. */
export function keywordShare(comp: HeldComposition, keywords: readonly string[]): { share: number; keyword: string } | null {
  let share = 0
  let first: string | null = null
  for (const p of comp.products) {
    const k = keywords.find((w) => p.name.includes(w))
    if (k === undefined) continue
    share += p.ratio
    first ??= k
  }
  return first === null ? null : { share: Math.min(1, Math.max(0, round4(share))), keyword: first }
}

/** The stocks a rule selects, by code. */
export function matchRule(rule: NodeRule, input: MatchInput): NodeMember[] {
  const viaBoard = new Map<string, string>()
  const named = [...rule.industries.map((n) => [n, input.industries.get(n)] as const), ...rule.concepts.map((n) => [n, input.concepts.get(n)] as const)]
  for (const [name, codes] of named) for (const code of codes ?? []) if (!viaBoard.has(code)) viaBoard.set(code, name)
  const hasBoards = named.length > 0
  const out: NodeMember[] = []
  if (rule.keywords.length === 0) {
    for (const [code, board] of viaBoard) out.push({ code, relevance: null, via: `board:${board}` })
  } else {
    const pool = hasBoards ? viaBoard.keys() : input.compositions.keys()
    for (const code of pool) {
      const comp = input.compositions.get(code)
      const hit = comp ? keywordShare(comp, rule.keywords) : null
      if (hit) out.push({ code, relevance: hit.share, via: `keyword:${hit.keyword}` })
    }
  }
  return out.sort((a, b) => (b.relevance ?? -1) - (a.relevance ?? -1) || (a.code < b.code ? -1 : 1))
}

/** The rule in words, for provenance: `concept boards 锂电池 ∩ main business naming 正极材料|磷酸铁锂`. */
export function describeRule(rule: NodeRule): string {
  const parts: string[] = []
  if (rule.industries.length) parts.push(`industry boards ${rule.industries.join('|')}`)
  if (rule.concepts.length) parts.push(`concept boards ${rule.concepts.join('|')}`)
  const boards = parts.join(' ∪ ')
  const kw = rule.keywords.length ? `main business naming ${rule.keywords.join('|')}` : ''
  return boards && kw ? `(${boards}) ∩ ${kw}` : boards || kw
}
