import { describe, expect, it } from 'vitest'
import { parseSymbol, splitCodes, SymbolError } from './symbols'

describe('parseSymbol', () => {
  it.each([
    ['sh600519', 'stock', 'sh-main'],
    ['SH688981', 'stock', 'star'],
    ['sz000001', 'stock', 'sz-main'],
    ['sz300750', 'stock', 'chinext'],
    ['bj830799', 'stock', 'bj'],
    ['bj920001', 'stock', 'bj'],
    ['sh000001', 'index', undefined],
    ['sz399006', 'index', undefined],
    ['sh510300', 'etf', undefined],
    ['sz159915', 'etf', undefined],
    ['sh113050', 'bond', undefined],
    ['sz123100', 'bond', undefined],
  ])('%s is a %s', (code, kind, board) => {
    const i = parseSymbol(code)
    expect(i.kind).toBe(kind)
    expect(i.board).toBe(board)
    expect(i.code).toBe(code.toLowerCase())
  })

  it('normalises US indexes written either way', () => {
    expect(parseSymbol('us.DJI')).toMatchObject({ code: 'us.DJI', kind: 'us-index' })
    expect(parseSymbol('usDJI')).toMatchObject({ code: 'us.DJI', kind: 'us-index' })
    expect(parseSymbol('usaapl')).toMatchObject({ code: 'usAAPL', kind: 'us' })
  })

  it('knows HK, sector, futures and forex codes', () => {
    expect(parseSymbol('hk00700')).toMatchObject({ kind: 'hk', symbol: '00700' })
    expect(parseSymbol('pt0477')).toMatchObject({ kind: 'sector', symbol: '0477' })
    expect(parseSymbol('furb2501')).toMatchObject({ kind: 'future', code: 'fuRB2501' })
    // Product plus 0: the main continuous contract (Sina nf_RB0).
    expect(parseSymbol('furb0')).toMatchObject({ kind: 'future', code: 'fuRB0', symbol: 'RB0' })
    expect(parseSymbol('fuIF0')).toMatchObject({ kind: 'future', code: 'fuIF0' })
    expect(parseSymbol('fxusdcnh')).toMatchObject({ kind: 'forex', code: 'fxUSDCNH' })
  })

  it.each(['600519', 'sh60051', 'sh900901', 'xx600519', 'hk700', 'us.AAPL', 'fuZZ2501', 'fuZZ0', 'fuRB00', 'fuRB1', 'fxABCDEF', 'pt12', ''])(
    'refuses %j with a reason',
    (code) => {
      expect(() => parseSymbol(code)).toThrow(SymbolError)
    }
  )
})

describe('splitCodes', () => {
  it('drops blanks and duplicates, keeps order', () => {
    expect(splitCodes(' sh600519, ,sz000001,SH600519')).toEqual(['sh600519', 'sz000001'])
  })
})
