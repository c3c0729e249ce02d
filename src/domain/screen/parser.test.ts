import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { factorsOf } from './ast'
import { ExpressionError } from './lexer'
import { EXPRESSION_LIMITS, parseExpression } from './parser'

const FACTORS = new Set(['PE_TTM', 'PB', 'ROETTM', 'ClosePrice', 'ChangePCT', 'ma_MA_5', 'ma_MA_20', 'TotalMV'])
const opts = { factors: FACTORS, elsewhere: (n: string) => (n === 'NorthHolding' ? 'an A-share factor' : undefined) }
const parse = (src: string) => parseExpression(src, opts)

/** The error an expression gets: its message and position. */
function errorOf(src: string): { msg: string; pos: number } {
  try {
    parse(src)
  } catch (e) {
    if (e instanceof ExpressionError) return { msg: e.message, pos: e.pos }
    throw e
  }
  throw new Error(`expected an error for ${src}`)
}

describe('parseExpression', () => {
  it('reads a comparison with arithmetic at the usual precedence', () => {
    expect(parse('PE_TTM < 10 + 2 * 3')).toEqual({
      type: 'compare',
      op: '<',
      pos: 0,
      left: { type: 'factor', name: 'PE_TTM', pos: 0 },
      right: {
        type: 'binary',
        op: '+',
        pos: 12,
        left: { type: 'number', value: 10, pos: 9 },
        right: { type: 'binary', op: '*', pos: 16, left: { type: 'number', value: 2, pos: 14 }, right: { type: 'number', value: 3, pos: 18 } },
      },
    })
  })

  it('reads the documented example and lists its factors in order of appearance', () => {
    const e = parse('intersect([PE_TTM < 15, ROETTM > 15, ClosePrice / ma_MA_20 > 1])')
    expect(e.type).toBe('intersect')
    expect(factorsOf(e)).toEqual(['PE_TTM', 'ROETTM', 'ClosePrice', 'ma_MA_20'])
  })

  it('takes union, exclude, top and bottom', () => {
    expect(parse('union([PB < 1, PE_TTM < 5])').type).toBe('union')
    expect(parse('exclude(top(TotalMV, 100), PE_TTM < 0)')).toMatchObject({ type: 'exclude', from: { type: 'top', n: 100 }, minus: { type: 'compare' } })
    expect(parse('bottom(PE_TTM / PB, 20)')).toMatchObject({ type: 'bottom', n: 20, by: { type: 'binary', op: '/' } })
    expect(parse('-PE_TTM > -(3 - 1)')).toMatchObject({ left: { type: 'neg' }, right: { type: 'neg' } })
  })

  it.each([
    ['PE_TTM < ', 9, /expected a number, a factor or '\(', found the end/],
    ['PE_TTM 10', 7, /expected a comparison/],
    ['PE_TTM = 10', 7, /'=' is not an operator/],
    ['intersect([PE_TTM < 1, PB < 2)', 29, /expected '\]'/],
    ['PE_TTM < 1 < 2', 11, /do not chain/],
    ['PE_TTM < 1)', 10, /unexpected '\)'/],
    ['top(PE_TTM, 0)', 12, /integer 1\.\.5000/],
    ['PE_TTM < 1 # x', 11, /unexpected character '#'/],
    ['PE_TTM < 市盈率', 9, /unexpected character '市'/],
    ['PE_TTM < top(PB, 3)', 9, /is a set/],
  ])('points at the position of a syntax error: %s', (src, pos, msg) => {
    const e = errorOf(src)
    expect(e.pos).toBe(pos)
    expect(e.msg).toMatch(msg)
  })

  it('suggests the nearest factor for a misspelt one, and says when another market has it', () => {
    expect(errorOf('ROE_TTM > 10')).toEqual({ pos: 0, msg: 'unknown factor ROE_TTM; did you mean ROETTM?' })
    expect(errorOf('PB < 1 and pe_ttm')).toMatchObject({ pos: 7 })
    expect(errorOf('pb < 1').msg).toContain('did you mean PB')
    expect(errorOf('PB < 2 + NorthHolding')).toEqual({ pos: 9, msg: 'NorthHolding is not available for this market (an A-share factor)' })
    expect(errorOf('intersec([PB < 1])').msg).toContain('did you mean intersect')
    expect(errorOf('PB(1) < 2').msg).toBe('PB is a factor, not a function')
  })

  it('refuses what is too long, too deep or has too many comparisons, cheaply', () => {
    expect(errorOf('PB < 1 '.repeat(400)).msg).toMatch(/at most 2000/)
    expect(errorOf('('.repeat(17) + 'PB' + ')'.repeat(17) + ' < 1').msg).toMatch(/deeper than 16/)
    expect(errorOf('-'.repeat(40) + 'PB < 1').msg).toMatch(/deeper than 16/)
    const many = `union([${Array.from({ length: EXPRESSION_LIMITS.maxComparisons + 1 }, () => 'PB<1').join(',')}])`
    expect(errorOf(many).msg).toMatch(/more than 64 comparisons/)
    expect(errorOf('intersect(['.repeat(17) + 'PB<1' + '])'.repeat(17)).msg).toMatch(/deeper than 16/)
  })

  it('treats hostile names as unknown factors, never as properties', () => {
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      expect(errorOf(`${name} < 1`).msg).toMatch(/unknown factor/)
    }
  })

  it('answers any input with a tree or an ExpressionError, never anything else', () => {
    const pieces = fc.constantFrom('PE_TTM', 'PB', '(', ')', '[', ']', ',', '<', '>=', '==', '+', '-', '*', '/', '1', '2.5', 'intersect', 'union', 'top', ' ', '\u00e9', '=')
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 200 }), fc.array(pieces, { maxLength: 60 }).map((a) => a.join(''))), (src) => {
        try {
          parse(src)
        } catch (e) {
          expect(e).toBeInstanceOf(ExpressionError)
          expect((e as ExpressionError).pos).toBeGreaterThanOrEqual(0)
          expect((e as ExpressionError).pos).toBeLessThanOrEqual(Math.max(src.length, EXPRESSION_LIMITS.maxLength))
        }
      }),
      { numRuns: 2000 }
    )
  })
})

describe('the grammar, exactly as the README states it', () => {
  it.each([
    ['INTERSECT([PE_TTM > 1])', /function names are lower case: write intersect, not INTERSECT/],
    ['Union([PE_TTM > 1])', /write union, not Union/],
    ['intersect(PE_TTM > 1)', /expected '\[' after intersect\( \(it takes a list: intersect\(\[set, …\]\)\)/],
    ['union(PB < 1, PE_TTM < 5)', /expected '\['/],
    ['PE_TTM > 5.', /'5\.' is not one/],
    ['PE_TTM > 1e3', /'1e' is not one/],
    ['PE_TTM > .5', /write '0\.5', not '\.5'/],
  ])('refuses %s, saying what to write', (expr, msg) => {
    expect(errorOf(expr).msg).toMatch(msg)
  })

  it('takes decimals with digits on both sides of the point', () => {
    expect(parse('PE_TTM > 0.5')).toMatchObject({ right: { type: 'number', value: 0.5 } })
    expect(parse('PE_TTM < 12.75')).toMatchObject({ right: { type: 'number', value: 12.75 } })
  })
})
