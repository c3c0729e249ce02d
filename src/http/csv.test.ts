import { describe, expect, it } from 'vitest'
import { readCsv } from '../../test/fixtures/csv-reader'
import { columnsOf, csvCell, csvLine, csvText } from './csv'

describe('CSV writer (RFC 4180)', () => {
  it('quotes a field holding a comma, a quote, CR or LF, doubling quotes inside', () => {
    expect(csvCell('plain')).toBe('plain')
    expect(csvCell('a,b')).toBe('"a,b"')
    expect(csvCell('say "hi"')).toBe('"say ""hi"""')
    expect(csvCell('two\nlines')).toBe('"two\nlines"')
    expect(csvCell('cr\rhere')).toBe('"cr\rhere"')
    expect(csvCell('贵州茅台')).toBe('贵州茅台')
  })

  it('writes numbers and booleans as JSON does, null and absent fields empty, nested values as JSON text', () => {
    expect(csvCell(1520)).toBe('1520')
    expect(csvCell(-0.5)).toBe('-0.5')
    expect(csvCell(1e21)).toBe(JSON.stringify(1e21))
    expect(csvCell(0.1 + 0.2)).toBe('0.30000000000000004')
    expect(csvCell(true)).toBe('true')
    expect(csvCell(null)).toBe('')
    expect(csvCell(undefined)).toBe('')
    expect(csvCell('')).toBe('')
    expect(csvCell([1, 2])).toBe('"[1,2]"')
    expect(csvCell({ a: 'x' })).toBe('"{""a"":""x""}"')
  })

  it('ends every line in CRLF and orders cells by the header', () => {
    expect(csvLine(['b', 'a'], { a: 1, b: 'x' })).toBe('x,1\r\n')
    expect(csvText(['code', 'name'], [{ code: 'sh600519', name: '贵州茅台' }, { code: 'sz000001', name: null }])).toBe('code,name\r\nsh600519,贵州茅台\r\nsz000001,\r\n')
    expect(csvText(['a'], [])).toBe('a\r\n')
  })

  it('takes the columns from the rows in the order first seen', () => {
    expect(columnsOf([{ a: 1, b: 2 }, { a: 3, c: 4 }])).toEqual(['a', 'b', 'c'])
    expect(columnsOf([])).toEqual([])
  })

  it('reads back to the same values with a standard RFC 4180 reader', () => {
    const rows = [{ s: 'a,"b"\r\nc', n: 1.25, z: null }]
    expect(readCsv(csvText(['s', 'n', 'z'], rows))).toEqual([['s', 'n', 'z'], ['a,"b"\r\nc', '1.25', '']])
  })
})
