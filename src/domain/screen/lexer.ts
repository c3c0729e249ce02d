/**
 * Tokens of the factor language (docs/api-guide.md, /v1/screen). Every token keeps its offset in the
 * expression, so an error can point at the character where it starts.
 */
type TokenKind = 'number' | 'name' | 'op' | 'punct' | 'end'

export interface Token {
  kind: TokenKind
  /** The token's text; for `end`, empty. */
  text: string
  /** Offset of its first character in the expression (0-based). */
  pos: number
}

/** A syntax error at `pos` (0-based offset into the expression). */
export class ExpressionError extends Error {
  constructor(
    message: string,
    readonly pos: number
  ) {
    super(message)
    this.name = 'ExpressionError'
  }
}

const OPERATORS = ['<=', '>=', '==', '!=', '<', '>', '+', '-', '*', '/'] as const
const PUNCTUATION = new Set(['(', ')', '[', ']', ','])
/** NUMBER := digits [ '.' digits ]: `5`, `0.5`, `12.75`; not `5.`, `.5` or `1e3` (README, the factor language). */
const NUMBER = /\d+(?:\.\d+)?/y
/** What follows a number that the grammar does not take, with the fix to name. */
const NUMBER_TAIL = /[.eE]/
const NAME = /[A-Za-z_][A-Za-z0-9_]*/y

/**
 * Splits an expression into tokens, ending with an `end` token. Whitespace separates; anything
 * else that is not a number, a name, an operator or `( ) [ ] ,` is an error at its position.
 */
export function tokenize(src: string): Token[] {
  const out: Token[] = []
  let i = 0
  while (i < src.length) {
    const ch = src[i]
    if (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r') {
      i++
      continue
    }
    NUMBER.lastIndex = i
    const num = NUMBER.exec(src)
    if (num && NUMBER_TAIL.test(src[i + num[0].length] ?? '')) {
      throw new ExpressionError(`a number is digits with an optional decimal part ('5', '0.5'); '${num[0]}${src[i + num[0].length]}' is not one`, i)
    }
    if (num) {
      out.push({ kind: 'number', text: num[0], pos: i })
      i += num[0].length
      continue
    }
    NAME.lastIndex = i
    const name = NAME.exec(src)
    if (name) {
      out.push({ kind: 'name', text: name[0], pos: i })
      i += name[0].length
      continue
    }
    const op = OPERATORS.find((o) => src.startsWith(o, i))
    if (op) {
      out.push({ kind: 'op', text: op, pos: i })
      i += op.length
      continue
    }
    if (PUNCTUATION.has(ch)) {
      out.push({ kind: 'punct', text: ch, pos: i })
      i++
      continue
    }
    if (ch === '.') throw new ExpressionError("a number starts with a digit: write '0.5', not '.5'", i)
    if (ch === '=') throw new ExpressionError("'=' is not an operator; compare with '=='", i)
    const shown = String.fromCodePoint(src.codePointAt(i)!)
    throw new ExpressionError(`unexpected character '${shown}'`, i)
  }
  out.push({ kind: 'end', text: '', pos: src.length })
  return out
}
