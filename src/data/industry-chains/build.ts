/**
 * The shapes of an industry-chain theme and the helper that builds one from short tuples, so the
 * 183+ themes read as data (one line per node) rather than as object literals.
 *
 * A node's members are never listed by hand: its `rule` says how to find them in upstream data.
 *  - `industries` / `concepts`: Eastmoney industry (行业板块) and concept (概念板块) board names;
 *  - `keywords`: words looked for in the product lines of the company's main-business composition
 *    (主营构成, Eastmoney F10 BusinessAnalysis, `MAINOP_TYPE` 2 "by product").
 * Boards and keywords together mean "members of the boards whose composition names one of the
 * keywords"; boards alone mean every member; keywords alone mean every stock (of those whose
 * composition is held) with such a product line. See src/domain/chain-match.ts.
 */

export type Position = 'upstream' | 'midstream' | 'downstream'

export interface NodeRule {
  industries: string[]
  concepts: string[]
  keywords: string[]
}

interface ChainNode {
  /** Unique within its theme: position letter and ordinal (`u1`, `m1`, `d2`). */
  id: string
  name: string
  position: Position
  rule: NodeRule
}

export interface ChainTheme {
  /** Stable English slug. */
  id: string
  /** Chinese theme name, what `topic` names. */
  name: string
  nodes: ChainNode[]
  /** Directed edges `[from, to]` between node ids: supply flows from → to. */
  edges: Array<[string, string]>
}

const POS: Record<string, Position> = { u: 'upstream', m: 'midstream', d: 'downstream' }

/** `c:锂电池,i:电池` → the boards it names. */
function boards(spec: string): Pick<NodeRule, 'industries' | 'concepts'> {
  const industries: string[] = []
  const concepts: string[] = []
  for (const part of spec.split(',').map((s) => s.trim()).filter(Boolean)) {
    const m = /^([ci]):(.+)$/.exec(part)
    if (!m) throw new Error(`board spec '${part}' is not c:<concept> or i:<industry>`)
    ;(m[1] === 'c' ? concepts : industries).push(m[2])
  }
  return { industries, concepts }
}

/**
 * One theme. `themeBoards` (`c:…,i:…`) applies to every node that names no boards of its own.
 * Each node is `'pos|name|keywords|boards?'`: pos `u`/`m`/`d`, keywords comma-separated (`-` for
 * none: board membership alone), optional boards overriding the theme's. Edges, when not given,
 * run from every upstream node to every midstream node and from every midstream node to every
 * downstream node (upstream straight to downstream when there is no midstream).
 */
export function theme(id: string, name: string, themeBoards: string, nodeSpecs: string[], edges?: Array<[string, string]>): ChainTheme {
  const counts: Record<string, number> = {}
  const nodes = nodeSpecs.map((spec) => {
    const [p, nodeName, kw, own] = spec.split('|')
    const position = POS[p]
    if (!position || !nodeName) throw new Error(`theme ${id}: node spec '${spec}' is not pos|name|keywords|boards?`)
    counts[p] = (counts[p] ?? 0) + 1
    const keywords = kw === '-' || kw === undefined ? [] : kw.split(',').map((s) => s.trim()).filter(Boolean)
    return { id: `${p}${counts[p]}`, name: nodeName, position, rule: { ...boards(own ?? themeBoards), keywords } }
  })
  const at = (pos: Position) => nodes.filter((n) => n.position === pos).map((n) => n.id)
  const [u, m, d] = [at('upstream'), at('midstream'), at('downstream')]
  const link = (from: string[], to: string[]) => from.flatMap((a) => to.map((b): [string, string] => [a, b]))
  return { id, name, nodes, edges: edges ?? (m.length ? [...link(u, m), ...link(m, d)] : link(u, d)) }
}
