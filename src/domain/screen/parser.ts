import type { CompareOp, NumExpr, SetExpr } from './ast'
import { ExpressionError, tokenize, type Token } from './lexer'
import { nearest } from './suggest'

/** Bounds on an expression, stated in the docs: past them the answer is a 422, never a slow parse. */
export const EXPRESSION_LIMITS = { maxLength: 2000, maxDepth: 16, maxComparisons: 64, maxTop: 5000 } as const

/** The set functions of the language. */
const SET_FUNCTIONS = ['intersect', 'union', 'exclude', 'top', 'bottom'] as const

const COMPARE_OPS = new Set(['<', '<=', '>', '>=', '==', '!='])

export interface ParseOptions {
  /** Factor names the market has. */
  factors: ReadonlySet<string>
  /** Why a name the market lacks is still a known factor elsewhere (e.g. "an A-share factor"), or undefined. */
  elsewhere?: (name: string) => string | undefined
  /** The market's name, for messages ("not available for market hk"). */
  market?: string
}

/**
 * Parses a factor expression (the grammar in docs/api-guide.md, /v1/screen) into a tree, checking every factor name
 * against the market's table. Throws {@link ExpressionError} with the offending position.
 */
export function parseExpression(src: string, opts: ParseOptions): SetExpr {
  if (src.length > EXPRESSION_LIMITS.maxLength) {
    throw new ExpressionError(`the expression is ${src.length} characters long; at most ${EXPRESSION_LIMITS.maxLength} are allowed`, EXPRESSION_LIMITS.maxLength)
  }
  if (src.trim() === '') throw new ExpressionError('the expression is empty', 0)
  return new Parser(tokenize(src), opts).parse()
}

class Parser {
  private i = 0
  private depth = 0
  private comparisons = 0

  constructor(
    private readonly tokens: Token[],
    private readonly opts: ParseOptions
  ) {}

  parse(): SetExpr {
    const set = this.set()
    const t = this.peek()
    if (t.kind !== 'end') throw new ExpressionError(`unexpected '${t.text}' after a complete expression`, t.pos)
    return set
  }

  private peek(ahead = 0): Token {
    return this.tokens[Math.min(this.i + ahead, this.tokens.length - 1)]
  }

  private next(): Token {
    const t = this.peek()
    if (t.kind !== 'end') this.i++
    return t
  }

  private expect(text: string, what: string): Token {
    const t = this.peek()
    if (t.text !== text || (t.kind !== 'punct' && t.kind !== 'op')) {
      throw new ExpressionError(`expected '${text}' ${what}, found ${describe(t)}`, t.pos)
    }
    return this.next()
  }

  private enter(pos: number): void {
    if (++this.depth > EXPRESSION_LIMITS.maxDepth) throw new ExpressionError(`the expression nests deeper than ${EXPRESSION_LIMITS.maxDepth} levels`, pos)
  }

  private set(): SetExpr {
    const t = this.peek()
    if (t.kind === 'name' && this.peek(1).text === '(') return this.call()
    return this.compare()
  }

  private call(): SetExpr {
    const nameTok = this.next()
    const fn = nameTok.text
    if (!(SET_FUNCTIONS as readonly string[]).includes(fn)) {
      if ((SET_FUNCTIONS as readonly string[]).includes(fn.toLowerCase())) throw new ExpressionError(`function names are lower case: write ${fn.toLowerCase()}, not ${fn}`, nameTok.pos)
      if (this.opts.factors.has(nameTok.text)) throw new ExpressionError(`${nameTok.text} is a factor, not a function`, nameTok.pos)
      const near = nearest(nameTok.text, SET_FUNCTIONS)
      throw new ExpressionError(`unknown function ${nameTok.text}${near.length ? `; did you mean ${near.join(', ')}?` : ''} (functions: ${SET_FUNCTIONS.join(', ')})`, nameTok.pos)
    }
    this.enter(nameTok.pos)
    this.expect('(', `after ${fn}`)
    let out: SetExpr
    if (fn === 'intersect' || fn === 'union') {
      this.expect('[', `after ${fn}( (it takes a list: ${fn}([set, …]))`)
      const sets = [this.set()]
      while (this.peek().text === ',') {
        this.next()
        sets.push(this.set())
      }
      this.expect(']', `to close the list of ${fn}`)
      out = { type: fn, sets, pos: nameTok.pos }
    } else if (fn === 'exclude') {
      const from = this.set()
      this.expect(',', 'between the two sets of exclude(set, set)')
      out = { type: 'exclude', from, minus: this.set(), pos: nameTok.pos }
    } else {
      const by = this.sum()
      this.expect(',', `between the factor and the count of ${fn}(FACTOR, N)`)
      const nTok = this.next()
      const n = Number(nTok.text)
      if (nTok.kind !== 'number' || !Number.isInteger(n) || n < 1 || n > EXPRESSION_LIMITS.maxTop) {
        throw new ExpressionError(`the count of ${fn} must be an integer 1..${EXPRESSION_LIMITS.maxTop}, found ${describe(nTok)}`, nTok.pos)
      }
      out = { type: fn as 'top' | 'bottom', by, n, pos: nameTok.pos }
    }
    this.expect(')', `to close ${fn}(`)
    this.depth--
    return out
  }

  private compare(): SetExpr {
    const start = this.peek().pos
    const left = this.sum()
    const opTok = this.peek()
    if (opTok.kind !== 'op' || !COMPARE_OPS.has(opTok.text)) {
      throw new ExpressionError(`expected a comparison (<, <=, >, >=, ==, !=), found ${describe(opTok)}`, opTok.pos)
    }
    this.next()
    if (++this.comparisons > EXPRESSION_LIMITS.maxComparisons) {
      throw new ExpressionError(`the expression has more than ${EXPRESSION_LIMITS.maxComparisons} comparisons`, opTok.pos)
    }
    const right = this.sum()
    const after = this.peek()
    if (after.kind === 'op' && COMPARE_OPS.has(after.text)) {
      throw new ExpressionError('comparisons do not chain; combine them with intersect([a < b, b < c])', after.pos)
    }
    return { type: 'compare', op: opTok.text as CompareOp, left, right, pos: start }
  }

  private sum(): NumExpr {
    let left = this.term()
    while (this.peek().text === '+' || this.peek().text === '-') {
      const op = this.next()
      left = { type: 'binary', op: op.text as '+' | '-', left, right: this.term(), pos: op.pos }
    }
    return left
  }

  private term(): NumExpr {
    let left = this.atom()
    while (this.peek().text === '*' || this.peek().text === '/') {
      const op = this.next()
      left = { type: 'binary', op: op.text as '*' | '/', left, right: this.atom(), pos: op.pos }
    }
    return left
  }

  private atom(): NumExpr {
    const t = this.next()
    if (t.kind === 'number') {
      const value = Number(t.text)
      if (!Number.isFinite(value)) throw new ExpressionError(`${t.text} is not a finite number`, t.pos)
      return { type: 'number', value, pos: t.pos }
    }
    if (t.kind === 'name') {
      if (this.peek().text === '(') throw new ExpressionError(`${t.text}(…) is a set; it cannot be used inside a comparison or arithmetic`, t.pos)
      return { type: 'factor', name: this.factorName(t), pos: t.pos }
    }
    if (t.text === '-' && t.kind === 'op') {
      this.enter(t.pos)
      const arg = this.atom()
      this.depth--
      return { type: 'neg', arg, pos: t.pos }
    }
    if (t.text === '(' && t.kind === 'punct') {
      this.enter(t.pos)
      const inner = this.sum()
      this.expect(')', 'to close (')
      this.depth--
      return inner
    }
    throw new ExpressionError(`expected a number, a factor or '(', found ${describe(t)}`, t.pos)
  }

  private factorName(t: Token): string {
    if (this.opts.factors.has(t.text)) return t.text
    const other = this.opts.elsewhere?.(t.text)
    if (other) throw new ExpressionError(`${t.text} is not available for ${this.opts.market ? `market ${this.opts.market}` : 'this market'} (${other})`, t.pos)
    const near = nearest(t.text, this.opts.factors)
    throw new ExpressionError(`unknown factor ${t.text}${near.length ? `; did you mean ${near.join(', ')}?` : ''}`, t.pos)
  }
}

const describe = (t: Token) => (t.kind === 'end' ? 'the end of the expression' : `'${t.text}'`)
