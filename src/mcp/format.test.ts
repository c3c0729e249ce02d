import { describe, expect, it } from 'vitest'
import { csvCell, errorResult, toolResult } from './format'

const ok = (data: unknown, extra: Record<string, unknown> = {}) => ({ status: 200, body: { ok: true, endpoint: 'x', tier: 'pro', elapsed_ms: 1, source: 'emulator:tencent', data, ...extra } })
const text = (r: { content: { text: string }[] }) => r.content[0].text

describe('toolResult', () => {
  it('shows a list of rows as one CSV table under a headline naming the endpoint, source and dates', () => {
    const r = toolResult(ok([{ date: '2026-11-20', last: 1520, name: '贵州茅台' }, { date: '2026-11-19', last: null, name: 'a,"b"' }], { as_of: '2026-11-20T10:30:00+08:00' }), 100)
    expect(text(r)).toBe('x (source emulator:tencent, as_of 2026-11-20T10:30:00+08:00)\ndate,last,name\n2026-11-20,1520,贵州茅台\n2026-11-19,,"a,""b"""')
    expect(r.isError).toBeUndefined()
    expect(r.structuredContent).toMatchObject({ ok: true, endpoint: 'x', data: [{ last: 1520 }, { last: null }] })
  })

  it('cuts every list to limit, in the text and in structuredContent, and says how many rows were cut and how to narrow', () => {
    const rows = Array.from({ length: 7 }, (_, i) => ({ i }))
    const r = toolResult(ok({ sh600519: rows, sz000001: rows.slice(0, 2) }), 3)
    const lines = text(r).split('\n')
    expect(lines).toEqual(['x (source emulator:tencent)', '## sh600519 (3 of 7 rows)', 'i', '0', '1', '2', '## sz000001', 'i', '0', '1', expect.stringMatching(/^4 rows cut \(limit 3\); narrow with .*raise limit/)])
    expect(r.structuredContent!.data).toEqual({ sh600519: rows.slice(0, 3), sz000001: rows.slice(0, 2) })
    expect(r.structuredContent!.rows_cut).toBe(4)
  })

  it('shows an object as a field,value table (nested objects as outer.inner) beside a table per nested list, with objects in its rows flattened one level', () => {
    const r = toolResult(ok({ date: '2026-11-20', total: 5430, breadth: { up: 1, down: 2 }, buckets: [{ label: '≤-9', range: { min: null, max: -9 }, count: 7 }] }), 100)
    expect(text(r).split('\n').slice(1)).toEqual(['field,value', 'date,2026-11-20', 'total,5430', 'breadth.up,1', 'breadth.down,2', '## buckets', 'label,range.min,range.max,count', '≤-9,,-9,7'])
  })

  it('shows titled tables once (not again from the same rows under data), sections of a list of lists, and text as it is', () => {
    const rows = [{ end_date: '2026-09-30', holders: 183215 }]
    const titled = toolResult(ok({ tables: [{ title: 'Number of shareholders', slug: 'holder_count', rows }], data: { holder_count: rows } }), 100)
    expect(text(titled).split('\n').slice(1)).toEqual(['## Number of shareholders', 'end_date,holders', '2026-09-30,183215'])
    const sections = toolResult(ok([[{ a: 1 }], [{ b: 2 }]]), 100)
    expect(text(sections).split('\n').slice(1)).toEqual(['## [0]', 'a', '1', '## [1]', 'b', '2'])
    expect(text(toolResult(ok('| date |\n| --- |'), 100))).toBe('x (source emulator:tencent)\n| date |\n| --- |')
  })

  it('turns a 200 with ok:false into an error result saying the call was not counted', () => {
    const r = toolResult({ status: 200, body: { ok: false, endpoint: 'quote', code: 'UPSTREAM_FAILED', error: 'every channel failed', data: [] } }, 100)
    expect(r.isError).toBe(true)
    expect(text(r)).toBe('HTTP 200 UPSTREAM_FAILED: every channel failed (this call was not counted)')
  })
})

describe('errorResult', () => {
  it("names each field of a 422 with the route's message and the value sent", () => {
    const body = { detail: [{ type: 'less_than_equal', loc: ['query', 'count'], msg: 'Input should be less than or equal to 1212', input: '99999' }] }
    const r = errorResult({ status: 422, body })
    expect(text(r)).toBe('HTTP 422 invalid argument: count: Input should be less than or equal to 1212 (got "99999")')
    expect(r.structuredContent).toEqual({ status: 422, ...body })
    expect(text(errorResult({ status: 422, body: { detail: [{ loc: ['body', 'code'], msg: 'Field required', input: null }] } }, 'tool'))).toBe('invalid argument: code: Field required')
  })

  it('carries code, message and retry_after of a refusal (from the body, else from Retry-After)', () => {
    const r = errorResult({ status: 429, body: { error: 'per-minute limit reached', code: 'RATE_LIMITED', limit: 30, retry_after: 41 } })
    expect(text(r)).toBe('HTTP 429 RATE_LIMITED: per-minute limit reached retry_after: 41 s')
    expect(r.structuredContent).toMatchObject({ status: 429, code: 'RATE_LIMITED', retry_after: 41 })
    expect(text(errorResult({ status: 429, body: { error: 'heavy quota', code: 'HEAVY_QUOTA' }, retryAfter: 7 }))).toBe('HTTP 429 HEAVY_QUOTA: heavy quota retry_after: 7 s')
    expect(text(errorResult({ status: 502, body: 'Bad gateway' }))).toBe('HTTP 502: Bad gateway')
  })
})

describe('csvCell', () => {
  it('quotes as RFC 4180 asks, and leaves plain values bare', () => {
    expect(csvCell('plain')).toBe('plain')
    expect(csvCell('a\nb')).toBe('"a\nb"')
    expect(csvCell('say "hi"')).toBe('"say ""hi"""')
    expect(csvCell(null)).toBe('')
    expect(csvCell(0)).toBe('0')
    expect(csvCell(false)).toBe('false')
    expect(csvCell([[1519.99, 3]])).toBe('"[[1519.99,3]]"')
  })
})

describe('bounded echoes', () => {
  it("a cut input says so in the text; a route's long error message is cut to 512 characters", () => {
    const body = { detail: [{ loc: ['body', 'code'], msg: 'bad', input: 'c'.repeat(256), input_truncated: true, input_length: 8000 }] }
    expect(text(errorResult({ status: 422, body }, 'tool'))).toBe(`invalid argument: code: bad (got "${'c'.repeat(256)}"… of 8000 characters)`)
    const long = text(errorResult({ status: 404, body: { error: 'e'.repeat(10_000), code: 'NOT_FOUND' } }))
    expect(long).toBe(`HTTP 404 NOT_FOUND: ${'e'.repeat(512)}…`)
  })
})
