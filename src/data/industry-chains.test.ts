import { describe, expect, it } from 'vitest'
import { market } from '../emulator/market'
import { boardsOf, compositionOf, hasBusiness } from '../emulator/market/business'
import { matchRule, type HeldComposition, type MatchInput } from '../domain/chain-match'
const SESSION_NOW = Date.parse('2026-11-20T10:30:00+08:00')
import doc from '../../public/_data/industry-chains.json'
import { CHAIN_THEME_COUNT, chainThemes, namedBoards } from './industry-chains'
import { theme } from './industry-chains/build'

/** The themes as the Worker reads them from its static assets (src/store/owned-tables.ts). */
const THEMES = chainThemes(doc)
const CHAIN_THEMES = THEMES.list

/** What the job would hold after a complete pass over the emulator: every board, every composition. */
function emulatorInput(): MatchInput {
  const industries = new Map<string, string[]>()
  const concepts = new Map<string, string[]>()
  const compositions = new Map<string, HeldComposition | null>()
  for (const inst of market.instruments()) {
    if (!hasBusiness(inst)) continue
    for (const b of boardsOf(inst)) {
      const m = b.kind === 'industry' ? industries : concepts
      if (!m.has(b.name)) m.set(b.name, [])
      m.get(b.name)!.push(inst.code)
    }
    const c = compositionOf(market, inst, SESSION_NOW)
    compositions.set(inst.code, c && { reportDate: c.reportDate, products: c.products })
  }
  return { industries, concepts, compositions }
}

describe('industry-chain themes', () => {
  it('are at least 183, with unique ids and names', () => {
    expect(CHAIN_THEMES.length).toBeGreaterThanOrEqual(183)
    expect(new Set(CHAIN_THEMES.map((t) => t.id)).size).toBe(CHAIN_THEMES.length)
    expect(new Set(CHAIN_THEMES.map((t) => t.name)).size).toBe(CHAIN_THEMES.length)
  })

  it('are as many as the route\'s description says (/openapi.json is built without the file)', () => {
    expect(CHAIN_THEMES.length).toBe(CHAIN_THEME_COUNT)
  })

  it('are read from the file\'s groups of tuples; any other shape is refused', () => {
    const two = chainThemes({ groups: [{ about: 'a', themes: [['x', '测试', 'c:A', ['u|甲|a', 'd|乙|b']]] }, { about: 'b', themes: [['y', '测', 'i:B', ['u|丙|-', 'm|丁|c']]] }] })
    expect(two.list.map((t) => t.id)).toEqual(['x', 'y'])
    expect(two.list[1].nodes[0].rule).toEqual({ industries: ['B'], concepts: [], keywords: [] })
    expect(() => chainThemes({})).toThrow(/no groups/)
    expect(() => chainThemes({ groups: [{ about: 'a' }] })).toThrow(/without themes/)
    expect(() => chainThemes({ groups: [{ themes: [['x', '测试', 'c:A']] }] })).toThrow(/not \[id, name, boards/)
    expect(() => chainThemes({ groups: [{ themes: [['x', '测试', 'c:A', [1]]] }] })).toThrow(/not \[id, name, boards/)
  })

  it('are graphs: unique node ids and names, valid positions, edges between existing nodes, two positions at least', () => {
    for (const t of CHAIN_THEMES) {
      const ids = new Set(t.nodes.map((n) => n.id))
      expect(ids.size, t.name).toBe(t.nodes.length)
      expect(new Set(t.nodes.map((n) => n.name)).size, t.name).toBe(t.nodes.length)
      for (const n of t.nodes) {
        expect(['upstream', 'midstream', 'downstream']).toContain(n.position)
        expect(n.rule.industries.length + n.rule.concepts.length + n.rule.keywords.length, `${t.name}/${n.name}`).toBeGreaterThan(0)
      }
      expect(new Set(t.nodes.map((n) => n.position)).size, t.name).toBeGreaterThanOrEqual(2)
      expect(t.edges.length, t.name).toBeGreaterThan(0)
      for (const [a, b] of t.edges) {
        expect(ids.has(a) && ids.has(b), `${t.name}: ${a}→${b}`).toBe(true)
        expect(a).not.toBe(b)
      }
    }
  })

  it('are built from tuples: theme boards apply unless a node names its own; edges run position to position', () => {
    const t = theme('x', '测试', 'c:锂电池', ['u|甲|a,b', 'u|乙|-|i:电池', 'm|丙|c', 'd|丁|d|c:储能,i:电池'])
    expect(t.nodes.map((n) => [n.id, n.rule])).toEqual([
      ['u1', { industries: [], concepts: ['锂电池'], keywords: ['a', 'b'] }],
      ['u2', { industries: ['电池'], concepts: [], keywords: [] }],
      ['m1', { industries: [], concepts: ['锂电池'], keywords: ['c'] }],
      ['d1', { industries: ['电池'], concepts: ['储能'], keywords: ['d'] }],
    ])
    expect(t.edges).toEqual([['u1', 'm1'], ['u2', 'm1'], ['m1', 'd1']])
    expect(theme('y', '测', 'c:A', ['u|a|k', 'd|b|k']).edges).toEqual([['u1', 'd1']])
    expect(() => theme('z', '错', 'x:A', ['u|a|k'])).toThrow(/board spec/)
    expect(() => theme('z', '错', 'c:A', ['q|a|k'])).toThrow(/pos\|name/)
  })

  it('find a theme by name or id', () => {
    expect(THEMES.of('锂电池')?.id).toBe('lithium-battery')
    expect(THEMES.of(' Lithium-Battery ')?.name).toBe('锂电池')
    expect(THEMES.of('锂电')).toBeUndefined()
  })

  it('name only boards the emulator has, and every theme selects stocks on the emulator', () => {
    const input = emulatorInput()
    const { industries, concepts } = namedBoards(CHAIN_THEMES)
    for (const b of industries) expect(input.industries.has(b), b).toBe(true)
    for (const b of concepts) expect(input.concepts.has(b), b).toBe(true)
    let emptyNodes = 0
    for (const t of CHAIN_THEMES) {
      const sizes = t.nodes.map((n) => matchRule(n.rule, input).length)
      expect(sizes.reduce((a, b) => a + b, 0), t.name).toBeGreaterThan(0)
      emptyNodes += sizes.filter((s) => s === 0).length
    }
    // Nearly every node finds someone; a few narrow product nodes may be empty in one simulated market.
    expect(emptyNodes).toBeLessThan(CHAIN_THEMES.reduce((s, t) => s + t.nodes.length, 0) * 0.1)
  }, 120_000)
})
