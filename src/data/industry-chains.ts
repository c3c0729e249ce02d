/**
 * The industry-chain themes served by /v1/industry-chain: owned data (DESIGN §12 "Owned data"),
 * reviewed like code. Each theme is a graph of nodes at upstream / midstream / downstream with
 * edges between them; a node's member stocks are never typed in: its rule names the Eastmoney
 * industry and concept boards and the main-business keywords that find them, and the scheduled
 * job (src/jobs/industry-chain.ts) materialises them. Tested: ≥183 themes, unique ids and names,
 * edges between existing nodes, two positions at least, and every theme selects stocks on the
 * emulator (src/data/industry-chains.test.ts).
 */
import type { ChainTheme } from './industry-chains/build'
import { CONSUMER_HEALTH } from './industry-chains/consumer-health'
import { ENERGY } from './industry-chains/energy'
import { MATERIALS_INFRA } from './industry-chains/materials-infra'
import { TECH } from './industry-chains/tech'

export type { ChainTheme, NodeRule } from './industry-chains/build'

export const CHAIN_THEMES: readonly ChainTheme[] = [...ENERGY, ...TECH, ...CONSUMER_HEALTH, ...MATERIALS_INFRA]

const BY_NAME = new Map(CHAIN_THEMES.map((t) => [t.name, t]))
const BY_ID = new Map(CHAIN_THEMES.map((t) => [t.id, t]))

/** The theme a `topic` names: its Chinese name or its id (case-insensitive). */
export function themeOf(topic: string): ChainTheme | undefined {
  const t = topic.trim()
  return BY_NAME.get(t) ?? BY_ID.get(t.toLowerCase())
}

/** Every board name the themes' rules mention, by kind: what the job must fetch. */
export function namedBoards(themes: readonly ChainTheme[] = CHAIN_THEMES): { industries: string[]; concepts: string[] } {
  const industries = new Set<string>()
  const concepts = new Set<string>()
  for (const t of themes) for (const n of t.nodes) {
    n.rule.industries.forEach((b) => industries.add(b))
    n.rule.concepts.forEach((b) => concepts.add(b))
  }
  return { industries: [...industries].sort(), concepts: [...concepts].sort() }
}
