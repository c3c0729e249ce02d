import { describe, expect, it } from 'vitest'
import { csvText } from './csv'
import { csvRowStream, jsonArrayToCsv } from './csv-stream'

const text = (s: ReadableStream<Uint8Array>) => new Response(s).text()

/** Feeds `chunks` through the converter and returns what it wrote. */
async function convert(columns: string[], chunks: string[]): Promise<string> {
  const source = new ReadableStream<string>({
    start(c) {
      for (const k of chunks) c.enqueue(k)
      c.close()
    },
  })
  let out = ''
  for await (const part of source.pipeThrough(jsonArrayToCsv(columns)) as unknown as AsyncIterable<string>) out += part
  return out
}

describe('csvRowStream', () => {
  it('writes the same text as the whole-table writer, however many chunks it takes', async () => {
    const rows = Array.from({ length: 1000 }, (_, i) => ({ time: `d${i}`, close: (i / 7).toFixed(2), note: i % 3 ? null : 'a,"b"' }))
    expect(await text(csvRowStream(['time', 'close', 'note'], rows))).toBe(csvText(['time', 'close', 'note'], rows))
    expect(await text(csvRowStream(['time'], []))).toBe('time\r\n')
  })

  it('reads the rows only as the stream is read (a generator is not drained up front)', async () => {
    let made = 0
    function* rows() {
      for (let i = 0; i < 100_000; i++) {
        made++
        yield { i }
      }
    }
    const reader = csvRowStream(['i'], rows()).getReader()
    await reader.read()
    // The first chunk, and at most one more the stream reads ahead.
    expect(made).toBeLessThanOrEqual(2 * 1024 + 1)
    await reader.cancel()
  })
})

describe('jsonArrayToCsv', () => {
  const rows = [
    { code: 'sh600000', time: '2026-11-20', close: '7.01', note: 'has } and { and ", inside' },
    { code: 'sh600519', time: '2026-11-20', close: '1520.00', note: '贵州茅台 \\ \n' },
    { code: 'sz000001', time: '2026-11-20', close: '11.20', note: '' },
  ]
  const json = JSON.stringify(rows)
  const columns = ['code', 'time', 'close', 'note']

  it('converts a JSON array of objects to the same CSV as the whole-table writer', async () => {
    expect(await convert(columns, [json])).toBe(csvText(columns, rows))
  })

  it('gives the same text wherever the chunks split the JSON (inside strings, escapes, between objects)', async () => {
    const want = csvText(columns, rows)
    for (let cut = 1; cut < json.length; cut++) expect(await convert(columns, [json.slice(0, cut), json.slice(cut)]), `cut at ${cut}`).toBe(want)
    expect(await convert(columns, json.split(''))).toBe(want)
  })

  it('writes the header alone for an empty array, and refuses a truncated one', async () => {
    expect(await convert(columns, ['[]'])).toBe('code,time,close,note\r\n')
    await expect(convert(columns, [json.slice(0, 40)])).rejects.toThrow(/mid-way/)
  })
})
