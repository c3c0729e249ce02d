import { describe, expect, it } from 'vitest'
import { markdownTable } from './markdown-table'

describe('markdownTable', () => {
  it('prints a header, a separator and one line per row, in column order', () => {
    expect(markdownTable(['date', 'open'], [{ open: true, date: '2025-01-02' }, { date: '2025-01-03', open: false }])).toBe(
      '| date | open |\n| --- | --- |\n| 2025-01-02 | true |\n| 2025-01-03 | false |\n'
    )
  })

  it('prints only the header without rows', () => {
    expect(markdownTable(['a'], [])).toBe('| a |\n| --- |\n')
  })

  it('escapes pipes and line breaks, and prints nothing for null', () => {
    expect(markdownTable(['a', 'b'], [{ a: 'x|y\nz', b: null }])).toBe('| a | b |\n| --- | --- |\n| x\\|y z |  |\n')
  })
})
