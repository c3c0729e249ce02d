/** The syntax tree of a factor expression: numeric terms inside comparisons, sets around them. */
export type NumExpr =
  | { type: 'number'; value: number; pos: number }
  | { type: 'factor'; name: string; pos: number }
  | { type: 'neg'; arg: NumExpr; pos: number }
  | { type: 'binary'; op: '+' | '-' | '*' | '/'; left: NumExpr; right: NumExpr; pos: number }

export type CompareOp = '<' | '<=' | '>' | '>=' | '==' | '!='

export type SetExpr =
  | { type: 'compare'; op: CompareOp; left: NumExpr; right: NumExpr; pos: number }
  | { type: 'intersect' | 'union'; sets: SetExpr[]; pos: number }
  | { type: 'exclude'; from: SetExpr; minus: SetExpr; pos: number }
  | { type: 'top' | 'bottom'; by: NumExpr; n: number; pos: number }

/** The factor names an expression uses, in the order they first appear (the result's columns). */
export function factorsOf(e: SetExpr | NumExpr, out: string[] = []): string[] {
  switch (e.type) {
    case 'factor':
      if (!out.includes(e.name)) out.push(e.name)
      break
    case 'neg':
      factorsOf(e.arg, out)
      break
    case 'binary':
    case 'compare':
      factorsOf(e.left, out)
      factorsOf(e.right, out)
      break
    case 'intersect':
    case 'union':
      for (const s of e.sets) factorsOf(s, out)
      break
    case 'exclude':
      factorsOf(e.from, out)
      factorsOf(e.minus, out)
      break
    case 'top':
    case 'bottom':
      factorsOf(e.by, out)
      break
  }
  return out
}
