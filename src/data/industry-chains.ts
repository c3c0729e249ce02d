/**
 * The industry-chain themes served by /v1/industry-chain: owned data (ours, not an upstream's),
 * reviewed like code. Each theme is a graph of nodes at upstream / midstream / downstream with
 * edges between them; a node's member stocks are never typed in: its rule names the Eastmoney
 * industry and concept boards and the main-business keywords that find them, and the scheduled
 * job (src/jobs/industry-chain.ts) materialises them.
 *
 * The themes themselves are public/_data/industry-chains.json, one line per theme in the short
 * form `theme()` reads (src/data/industry-chains/build.ts). They are a Workers static asset, not
 * part of the script (a smaller bundle starts faster): `services.store.chainThemes`
 * reads and parses them once per isolate, and wrangler.toml's `run_worker_first` keeps `/_data/`
 * from the public. Tested: ≥183 themes, unique ids and names, edges between existing nodes, two
 * positions at least, and every theme selects stocks on the emulator
 * (src/data/industry-chains.test.ts).
 */
import { theme, type ChainTheme } from './industry-chains/build'

export type { ChainTheme, NodeRule } from './industry-chains/build'

/** The themes' file under the owned tables' path (src/store/owned-tables.ts). */
export const CHAIN_THEMES_FILE = 'industry-chains.json'

/**
 * How many themes the file holds. The route's description states it, and /openapi.json is built
 * without reading the file; src/data/industry-chains.test.ts holds the two equal.
 */
export const CHAIN_THEME_COUNT = 244

/** One theme as the file writes it: `[id, name, theme boards, node specs]` (see `theme()`). */
type ThemeTuple = [string, string, string, string[]]

/** The themes, in the file's order, and their look-up by name and id. */
export interface ChainThemes {
  readonly list: readonly ChainTheme[]
  /** The theme a `topic` names: its Chinese name or its id (case-insensitive). */
  of(topic: string): ChainTheme | undefined
}

const isTuple = (t: unknown): t is ThemeTuple =>
  Array.isArray(t) && t.length === 4 && t.slice(0, 3).every((s) => typeof s === 'string') && Array.isArray(t[3]) && t[3].every((s) => typeof s === 'string')

/** The themes of the file's parsed JSON (`{groups: [{about, themes: [tuple, …]}, …]}`); throws on any other shape. */
export function chainThemes(doc: unknown): ChainThemes {
  const groups = (doc as { groups?: unknown } | null)?.groups
  if (!Array.isArray(groups)) throw new Error(`${CHAIN_THEMES_FILE}: no groups`)
  const list = groups.flatMap((g: { themes?: unknown }) => {
    if (!Array.isArray(g?.themes)) throw new Error(`${CHAIN_THEMES_FILE}: a group without themes`)
    return g.themes.map((t: unknown) => {
      if (!isTuple(t)) throw new Error(`${CHAIN_THEMES_FILE}: ${JSON.stringify(t)} is not [id, name, boards, [node, …]]`)
      return theme(...t)
    })
  })
  const byName = new Map(list.map((t) => [t.name, t]))
  const byId = new Map(list.map((t) => [t.id, t]))
  return {
    list,
    of: (topic) => {
      const t = topic.trim()
      return byName.get(t) ?? byId.get(t.toLowerCase())
    },
  }
}

/** Every board name the themes' rules mention, by kind: what the job must fetch. */
export function namedBoards(themes: readonly ChainTheme[]): { industries: string[]; concepts: string[] } {
  const industries = new Set<string>()
  const concepts = new Set<string>()
  for (const t of themes) for (const n of t.nodes) {
    n.rule.industries.forEach((b) => industries.add(b))
    n.rule.concepts.forEach((b) => concepts.add(b))
  }
  return { industries: [...industries].sort(), concepts: [...concepts].sort() }
}
