// A quote, the technical indicators and a screen, typed end to end: paths, parameters and every
// field of the answers are checked by tsc (`npm run check:client` compiles this file and runs it
// against the built worker). Against `npm start`, with a key from `npm run key -- create --tier trial`,
// from the repository's root (API_BASE_URL moves it to another origin):
//
//   npx tsc -p clients/typescript --noEmit false --outDir .bench/client-js
//   API_KEY=mk_… node .bench/client-js/examples/basic.js
//
// or, with tsx, `API_KEY=mk_… npx tsx clients/typescript/examples/basic.ts`.
import { createClient, type Schema } from '../src/index.js'

declare const process: { env: Record<string, string | undefined>; exitCode?: number }

const code = 'sh600519'
const api = createClient({ baseUrl: process.env.API_BASE_URL ?? 'http://127.0.0.1:8787', key: process.env.API_KEY })

/** Stops on anything but a 200 (the body of a 401, 403, 422 or 429 says what to do). */
function answered<T>(call: string, result: { data?: T; error?: unknown; response: Response }): T {
  if (result.data === undefined) throw new Error(`${call}: HTTP ${result.response.status} ${JSON.stringify(result.error)}`)
  return result.data
}

// Daily bars, newest first; data[0] is today's live bar. One code gives an array, several a map.
const quote = answered('quote', await api.GET('/v1/quote', { params: { query: { code, count: 5 } } }))
const bars: Schema<'BarRow'>[] = Array.isArray(quote.data) ? quote.data : (quote.data[code] ?? [])
console.log(`quote ${code} (${quote.source}): last ${bars[0]?.last} on ${bars[0]?.date}`)

// One row of 51 indicator columns; a value is null while the history is too short for it.
const technical = answered('technical', await api.GET('/v1/technical', { params: { query: { code } } }))
const row = technical.data[0]
if (row) console.log(`technical ${row.code} ${row.date}: close ${row.closePrice}, MA20 ${row.ma_MA_20}, MACD DIF ${row.macd_DIF}, RSI6 ${row.rsi_RSI_6}`)
else console.log(`technical: ${technical.code} ${technical.error}`)

// The five largest companies of the latest session's factor table; `structured` is the rows as objects.
const screen = answered('screen', await api.GET('/v1/screen', { params: { query: { expr: 'top(TotalMV, 5)', orderby: 'TotalMV', limit: 5 } } }))
if (screen.ok) for (const r of screen.structured) console.log(`screen ${screen.date}: ${r.code} ${r.name} TotalMV ${r.TotalMV}`)
else console.log(`screen: ${screen.code} ${screen.error ?? screen.notice ?? ''}`)

if (!quote.ok || !technical.ok || !screen.ok) process.exitCode = 1
