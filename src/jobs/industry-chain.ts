/**
 * The industry-chain job: materialises every theme node's member stocks into R2
 * `chains/members.json`, which /v1/industry-chain serves.
 *
 * Bounded upstream requests. Board membership first, compositions only for candidates: a run
 * (1) lists the industry and concept board directories (name → BK code, about 20 pages), (2)
 * fetches the constituents of every board a theme names (about 215 boards, one or two pages
 * each), and (3) fetches the main-business composition (one F10 request per stock) of the
 * candidate stocks, i.e. the members of those boards, oldest first. Each run spends at most
 * `budget` requests (default 400, well inside the Workers limit of 1,000 subrequests), keeps
 * its progress in `chains/work.json` and `chains/compositions.json`, and writes members.json
 * from what it holds, with its coverage. Boards are refreshed weekly, compositions (annual and
 * interim reports) after 90 days; so the first whole pass (about 5,000 compositions) takes a
 * night of the cron below, and later runs only refresh. Idempotent: a run with nothing due
 * rewrites the same members with a new `computed_at` only when it fetched something.
 */
import { fetchBoardDirectory, fetchBoardMembers, type BoardKind } from '../channels/eastmoney/boards'
import { fetchComposition } from '../channels/eastmoney/f10-business'
import { ChannelError } from '../channels/errors'
import type { ChannelContext } from '../channels/types'
import { namedBoards, type ChainTheme } from '../data/industry-chains'
import { describeRule, matchRule, type HeldComposition } from '../domain/chain-match'
import { mapLimit } from '../domain/concurrency'
import { MEMBERS_KEY } from '../store/chain-members'
import type { MembersDoc } from '../store/shapes'
import { getJson, putJson } from '../store/r2-json'
import { pacedContext } from './pace'

const WORK_KEY = 'chains/work.json'
const COMPOSITIONS_KEY = 'chains/compositions.json'

/** Upstream requests one run may spend. */
const DEFAULT_BUDGET = 400
const BOARD_MAX_AGE_MS = 7 * 86_400_000
const COMPOSITION_MAX_AGE_MS = 90 * 86_400_000
/** A composition that did not add up counts as none, and is asked again after a week, not every run. */
const MALFORMED_RETRY_MS = 7 * 86_400_000
const CONCURRENCY = 4

interface HeldBoard {
  code: string | null
  members: string[]
  at: number
}

interface Work {
  /** Board name → what was fetched, per kind. */
  boards: Record<BoardKind, Record<string, HeldBoard>>
  /** Stock names seen in board lists. */
  names: Record<string, string>
}

/** Per stock: the composition (null: the page has none), and `malformed` when it did not add up. */
type HeldCompositions = Record<string, { at: number; comp: HeldComposition | null; malformed?: true }>

export interface ChainRunSummary {
  requests: number
  boards_fetched: number
  compositions_fetched: number
  failures: number
  complete: boolean
  coverage: MembersDoc['coverage']
}

export interface ChainJobDeps {
  store: R2Bucket
  ctx: ChannelContext
  now: () => number
  /** The themes whose members it builds: all of them (`services.store.chainThemes`), or a few in tests. */
  themes: readonly ChainTheme[]
  budget?: number
}

/** One run of the job. */
export async function runIndustryChainJob(deps: ChainJobDeps): Promise<ChainRunSummary> {
  const { store } = deps
  const ctx = pacedContext(deps.ctx)
  const { themes } = deps
  let budget = deps.budget ?? DEFAULT_BUDGET
  const now = deps.now()
  const work: Work = (await getJson<Work>(store, WORK_KEY)) ?? { boards: { industry: {}, concept: {} }, names: {} }
  const comps: HeldCompositions = (await getJson<HeldCompositions>(store, COMPOSITIONS_KEY)) ?? {}
  let requests = 0
  let failures = 0
  let boardsFetched = 0
  let compsFetched = 0

  // 1–2. Boards: the directory of a kind only when one of its named boards is due.
  const named = namedBoards(themes)
  for (const kind of ['industry', 'concept'] as BoardKind[]) {
    const names = kind === 'industry' ? named.industries : named.concepts
    const due = names.filter((n) => !work.boards[kind][n] || now - work.boards[kind][n].at > BOARD_MAX_AGE_MS)
    if (due.length === 0 || budget <= 0) continue
    let directory: Map<string, string>
    try {
      const list = await fetchBoardDirectory(ctx, kind)
      directory = new Map(list.map((b) => [b.name, b.code]))
      const pages = Math.ceil(list.length / 100)
      requests += pages
      budget -= pages
    } catch (e) {
      failures++
      console.error(`industry-chain: ${kind} board directory: ${e instanceof Error ? e.message : e}`)
      continue
    }
    for (const name of due) {
      if (budget <= 0) break
      const code = directory.get(name) ?? null
      if (code === null) {
        // A board the upstream no longer lists selects nothing; said in the coverage, not invented.
        work.boards[kind][name] = { code: null, members: [], at: now }
        continue
      }
      try {
        const members = await fetchBoardMembers(ctx, code)
        const pages = Math.max(1, Math.ceil(members.length / 100))
        requests += pages
        budget -= pages
        for (const m of members) if (m.name) work.names[m.code] = m.name
        work.boards[kind][name] = { code, members: members.map((m) => m.code).sort(), at: now }
        boardsFetched++
      } catch (e) {
        requests++
        budget--
        failures++
        console.error(`industry-chain: board ${name} (${code}): ${e instanceof Error ? e.message : e}`)
      }
    }
  }

  // 3. Compositions of the candidates, those never fetched first, then the oldest.
  const candidates = [...new Set(Object.values(work.boards).flatMap((byName) => Object.values(byName).flatMap((b) => b.members)))].sort()
  const due = candidates.filter((c) => !comps[c] || now - comps[c].at > (comps[c].malformed ? MALFORMED_RETRY_MS : COMPOSITION_MAX_AGE_MS)).sort((a, b) => (comps[a]?.at ?? 0) - (comps[b]?.at ?? 0) || (a < b ? -1 : 1))
  const batch = due.slice(0, Math.max(0, budget))
  await mapLimit(batch, CONCURRENCY, async (code) => {
    requests++
    try {
      const c = await fetchComposition(ctx, code)
      comps[code] = { at: now, comp: c && { reportDate: c.reportDate, products: c.products.map((p) => ({ name: p.name, ratio: p.ratio })) } }
      compsFetched++
    } catch (e) {
      failures++
      console.error(`industry-chain: composition of ${code}: ${e instanceof Error ? e.message : e}`)
      // Wrong data is worse than none: held as no composition, so the stock stops costing a request every run.
      if (e instanceof ChannelError && e.kind === 'malformed') comps[code] = { at: now, comp: null, malformed: true }
    }
  })

  await putJson(store, WORK_KEY, work)
  if (batch.length) await putJson(store, COMPOSITIONS_KEY, comps)

  const boardsNamed = named.industries.length + named.concepts.length
  const boardsHeld = Object.values(work.boards).reduce((s, byName) => s + Object.keys(byName).length, 0)
  const held = candidates.filter((c) => comps[c]).length
  const coverage = { boards: boardsHeld, boards_named: boardsNamed, compositions: held, candidates: candidates.length }
  const complete = boardsHeld >= boardsNamed && held === candidates.length
  const previous = await store.head(MEMBERS_KEY)
  if (boardsFetched || compsFetched || !previous) await putJson(store, MEMBERS_KEY, membersDoc(themes, work, comps, new Date(now).toISOString(), complete, coverage))
  return { requests, boards_fetched: boardsFetched, compositions_fetched: compsFetched, failures, complete, coverage }
}

/** The served document: each node's members under its rule, stamped with when they were computed. */
function membersDoc(themes: readonly ChainTheme[], work: Work, comps: HeldCompositions, at: string, complete: boolean, coverage: MembersDoc['coverage']): MembersDoc {
  const byName = (kind: BoardKind) => new Map(Object.entries(work.boards[kind]).map(([n, b]) => [n, b.members]))
  const input = {
    industries: byName('industry'),
    concepts: byName('concept'),
    compositions: new Map(Object.entries(comps).map(([code, c]) => [code, c.comp])),
  }
  const names: Record<string, string> = {}
  const doc = themes.map((t) => ({
    id: t.id,
    name: t.name,
    edges: t.edges,
    nodes: t.nodes.map((n) => {
      const members = matchRule(n.rule, input)
      for (const m of members) names[m.code] = work.names[m.code] ?? ''
      return { id: n.id, name: n.name, position: n.position, rule: describeRule(n.rule), computed_at: at, members }
    }),
  }))
  return { computed_at: at, complete, coverage, names, themes: doc }
}

/** The job until it has nothing left to fetch (first start on the emulator; tests). */
export async function runIndustryChainToEnd(deps: ChainJobDeps, maxRuns = 100): Promise<ChainRunSummary> {
  let last: ChainRunSummary | undefined
  for (let i = 0; i < maxRuns; i++) {
    last = await runIndustryChainJob(deps)
    if (last.complete || (last.boards_fetched === 0 && last.compositions_fetched === 0)) break
  }
  return last!
}
