import { factorByName, factorNames, type ScreenMarket } from '../../data/factors'
import { presetByName, PRESETS } from '../../data/screen-presets'
import { factorsOf, type SetExpr } from './ast'
import { ExpressionError } from './lexer'
import { parseExpression } from './parser'

/** What a valid /v1/screen query asks for. */
export interface ScreenPlan {
  market: ScreenMarket
  /** The expression as given, or the preset's. */
  expr: string
  preset?: string
  tree: SetExpr
  /** Columns after code and name: the expression's factors, then ClosePrice and ChangePCT. */
  columns: string[]
  orderby: string
  desc: boolean
  limit: number
}

/** A query problem: the field and a message (the route turns it into a 422). */
export class ScreenQueryError extends Error {
  constructor(
    readonly field: string,
    message: string,
    readonly position?: number
  ) {
    super(message)
  }
}

export interface ScreenQuery {
  expr?: string
  preset?: string
  market?: ScreenMarket
  orderby?: string
  desc?: boolean
  limit?: number
}

/** Default rows. */
export const SCREEN_DEFAULT_LIMIT = 30

/** Checks a query against the factor catalogue and parses its expression; throws {@link ScreenQueryError}. */
export function planScreen(q: ScreenQuery): ScreenPlan {
  if (q.expr !== undefined && q.preset !== undefined) throw new ScreenQueryError('preset', 'give expr or preset, not both (a preset is an expression: edit its expr instead)')
  if (q.expr === undefined && q.preset === undefined) throw new ScreenQueryError('expr', `expr or preset is required (presets: ${PRESETS.map((p) => p.name).join(', ')})`)
  const preset = q.preset === undefined ? undefined : presetByName(q.preset)
  if (q.preset !== undefined && !preset) throw new ScreenQueryError('preset', `unknown preset ${q.preset}; presets: ${PRESETS.map((p) => p.name).join(', ')}`)
  if (preset && q.market && q.market !== preset.market) throw new ScreenQueryError('market', `preset ${preset.name} is for market ${preset.market}`)
  const market = preset?.market ?? q.market ?? 'hs'
  const expr = preset?.expr ?? q.expr!
  const factors = new Set(factorNames(market))
  let tree: SetExpr
  try {
    tree = parseExpression(expr, {
      factors,
      market,
      elsewhere: (name) => {
        const f = factorByName(name)
        return f ? `it exists for market ${Object.keys(f.sources).join(', ')}` : undefined
      },
    })
  } catch (e) {
    if (!(e instanceof ExpressionError)) throw e
    throw new ScreenQueryError('expr', `at position ${e.pos}: ${e.message}`, e.pos)
  }
  const used = factorsOf(tree)
  const columns = [...used, ...['ClosePrice', 'ChangePCT'].filter((c) => !used.includes(c))]
  const orderby = q.orderby ?? preset?.orderby ?? used[0]
  if (!factors.has(orderby)) {
    const f = factorByName(orderby)
    throw new ScreenQueryError('orderby', f ? `${orderby} is not a factor of market ${market}` : `unknown factor ${orderby}; orderby takes any factor of market ${market}`)
  }
  if (!columns.includes(orderby)) columns.push(orderby)
  return { market, expr, preset: preset?.name, tree, columns, orderby, desc: q.desc ?? preset?.desc ?? true, limit: q.limit ?? SCREEN_DEFAULT_LIMIT }
}
