import type { NumExpr, SetExpr } from './ast'

/**
 * The rows an expression runs over: one value per row and factor, `NaN` where the factor is
 * null for that row (a new listing's MA250, a loss-maker's PE).
 */
export interface FactorTable {
  readonly size: number
  column(name: string): ArrayLike<number>
}

/** A factor table with its rows' identity, as a screen reads it. */
export interface ScreenTable extends FactorTable {
  codes: readonly string[]
  names: readonly string[]
  /** The value of `factor` in row `i`, null when absent. */
  value(factor: string, i: number): number | null
}

/** A numeric node's value: one per row, or a constant. */
type Values = Float64Array | number

/**
 * Evaluates a parsed expression over every row at once. Returns a mask (1 = selected).
 * A comparison with a null (NaN) side is false, as /v1/screen documents; so is anything divided
 * by zero. `top(F, N)` picks the N rows with the largest non-null F (ties: the earlier row).
 */
export function evaluate(expr: SetExpr, table: FactorTable): Uint8Array {
  const n = table.size
  switch (expr.type) {
    case 'compare': {
      const a = numeric(expr.left, table)
      const b = numeric(expr.right, table)
      const out = new Uint8Array(n)
      const test = COMPARE[expr.op]
      for (let i = 0; i < n; i++) {
        const x = typeof a === 'number' ? a : a[i]
        const y = typeof b === 'number' ? b : b[i]
        // NaN fails every test below except !=, so it is checked once here.
        out[i] = x === x && y === y && test(x, y) ? 1 : 0
      }
      return out
    }
    case 'intersect':
    case 'union': {
      const masks = expr.sets.map((s) => evaluate(s, table))
      const out = masks[0].slice()
      for (const m of masks.slice(1)) for (let i = 0; i < n; i++) out[i] = expr.type === 'intersect' ? out[i] & m[i] : out[i] | m[i]
      return out
    }
    case 'exclude': {
      const out = evaluate(expr.from, table)
      const minus = evaluate(expr.minus, table)
      for (let i = 0; i < n; i++) if (minus[i]) out[i] = 0
      return out
    }
    case 'top':
    case 'bottom': {
      const v = numeric(expr.by, table)
      const out = new Uint8Array(n)
      if (typeof v === 'number') return out // a constant ranks nothing
      const rows: number[] = []
      for (let i = 0; i < n; i++) if (v[i] === v[i]) rows.push(i)
      const sign = expr.type === 'top' ? -1 : 1
      rows.sort((x, y) => sign * (v[x] - v[y]) || x - y)
      for (const i of rows.slice(0, expr.n)) out[i] = 1
      return out
    }
  }
}

const COMPARE: Record<string, (x: number, y: number) => boolean> = {
  '<': (x, y) => x < y,
  '<=': (x, y) => x <= y,
  '>': (x, y) => x > y,
  '>=': (x, y) => x >= y,
  '==': (x, y) => x === y,
  '!=': (x, y) => x !== y,
}

function numeric(e: NumExpr, table: FactorTable): Values {
  switch (e.type) {
    case 'number':
      return e.value
    case 'factor':
      return Float64Array.from(table.column(e.name))
    case 'neg': {
      const a = numeric(e.arg, table)
      return typeof a === 'number' ? -a : a.map((x) => -x)
    }
    case 'binary': {
      const a = numeric(e.left, table)
      const b = numeric(e.right, table)
      const f = ARITHMETIC[e.op]
      if (typeof a === 'number' && typeof b === 'number') return f(a, b)
      const out = new Float64Array(table.size)
      for (let i = 0; i < out.length; i++) out[i] = f(typeof a === 'number' ? a : a[i], typeof b === 'number' ? b : b[i])
      return out
    }
  }
}

const ARITHMETIC: Record<'+' | '-' | '*' | '/', (x: number, y: number) => number> = {
  '+': (x, y) => x + y,
  '-': (x, y) => x - y,
  '*': (x, y) => x * y,
  // Division by zero is no value (null), not an infinity that would pass `> 100`.
  '/': (x, y) => (y === 0 ? NaN : x / y),
}
