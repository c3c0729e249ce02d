import { describe, expect, it } from 'vitest'
import { ChannelError } from './errors'
import { parseJson, parseJsonObject } from './json'

describe('upstream JSON', () => {
  it('parses JSON, and calls anything else malformed, quoting what came', () => {
    expect(parseJson('eastmoney', '[1,2]', 'list')).toEqual([1, 2])
    expect(parseJsonObject('eastmoney', '{"a":1}', 'list')).toEqual({ a: 1 })
    const page = '<html><body>502 Bad Gateway</body></html>'
    expect(() => parseJson('sina', page, 'statements answer')).toThrow(ChannelError)
    expect(() => parseJson('sina', page, 'statements answer')).toThrow(/statements answer is not JSON: "<html><body>502/)
    expect(() => parseJsonObject('ths', '[1]', 'hot list')).toThrow(/hot list is not a JSON object/)
    expect(() => parseJsonObject('ths', 'null', 'hot list')).toThrow(/hot list is not a JSON object/)
  })
})
