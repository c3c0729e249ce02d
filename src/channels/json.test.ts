import { describe, expect, it } from 'vitest'
import { ChannelError, plainWords } from './errors'
import { parseJson, parseJsonObject } from './json'

describe('upstream JSON', () => {
  it('parses JSON, and calls anything else malformed, saying what came instead in plain words, never its bytes', () => {
    expect(parseJson('eastmoney', '[1,2]', 'list')).toEqual([1, 2])
    expect(parseJsonObject('eastmoney', '{"a":1}', 'list')).toEqual({ a: 1 })
    const page = '<html><body>502 Bad Gateway</body></html>'
    expect(() => parseJson('sina', page, 'statements answer')).toThrow(ChannelError)
    expect(() => parseJson('sina', page, 'statements answer')).toThrow('sina: malformed: statements answer is not JSON (41 characters: an HTML page)')
    // What the emulator's `garbage` fault sends, decoded: a gzip header, controls, invalid UTF-8.
    const garbage = new TextDecoder().decode(new Uint8Array([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x03, 0xff, 0xfe, 0x00, 0x9c, 0x7b, 0x22, 0x72, 0x1b, 0x5b]))
    expect(() => parseJson('eastmoney', garbage, 'response')).toThrow(/^eastmoney: malformed: response is not JSON \(\d+ characters: gzip-compressed bytes\)$/)
    expect(() => parseJson('eastmoney', `{"rc":0,"data":{"klines":["2026-11-20,1,2,3`, 'response')).toThrow('eastmoney: malformed: response is not JSON (43 characters: JSON cut short or broken)')
    expect(() => parseJsonObject('ths', '[1]', 'hot list')).toThrow(/hot list is not a JSON object/)
    expect(() => parseJsonObject('ths', 'null', 'hot list')).toThrow(/hot list is not a JSON object/)
  })
})

describe('plainWords: a failure in plain words, never the upstream bytes', () => {
  it('keeps a short readable quote, describes a long or unreadable one, drops stray controls, and bounds the whole', () => {
    expect(plainWords('amount at 2026-10-23 is not a number: "NaN"')).toBe('amount at 2026-10-23 is not a number: "NaN"')
    expect(plainWords(`bad row ${JSON.stringify('x'.repeat(60))}`)).toBe('bad row (text of another format left out)')
    expect(plainWords(`bad ${JSON.stringify('\u001f\ufffd\b\u0000')}`)).toBe('bad (gzip-compressed bytes left out)')
    expect(plainWords(`Unexpected token '\u001f', "\u001f\ufffd\u0000" is not valid JSON`)).toBe("Unexpected token '', (an excerpt left out) is not valid JSON")
    expect(plainWords('w'.repeat(1000))).toBe(`${'w'.repeat(200)}…`)
    expect(new ChannelError('malformed', 'tencent', `x ${JSON.stringify('\u0001'.repeat(9000))}`).message).toBe('tencent: malformed: x (binary bytes left out)')
  })
})
