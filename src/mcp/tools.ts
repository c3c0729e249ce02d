/**
 * The MCP tools (POST /mcp): task-level tools, each a thin description of one `/v1` request. A tool
 * holds no logic of its own: its arguments become a GET request that runs through the same route as
 * an HTTP caller's (src/mcp/dispatch.ts), so validation, tiers, limits and counting are the route's.
 * Input schemas state types and choices; ranges and caps are left to the route, whose 422 names the
 * field. Descriptions are kept short: the whole `tools/list` answer stays under 24,000 characters.
 */
import { z } from 'zod'
import { quotedExcerpt } from '../http/validation'

/** Query parameters of a dispatched call; undefined ones are left out. */
export type QueryParams = Record<string, string | number | boolean | undefined>

/** A `/v1` GET request a tool call makes, or a refusal with the reason (shown to the agent as an error). */
export type ToolRequest = { path: string; query: QueryParams } | { refused: string }

export interface ToolSpec<Shape extends z.ZodRawShape = z.ZodRawShape> {
  name: string
  title: string
  description: string
  input: Shape
  /** The request its (validated) arguments make. `limit` is also the row cap of the text answer. */
  request(args: z.infer<z.ZodObject<Shape>> & { limit?: number }): ToolRequest
}

/** Keeps each entry's argument type tied to its own schema. */
const tool = <Shape extends z.ZodRawShape>(spec: ToolSpec<Shape>): ToolSpec => spec as unknown as ToolSpec

const CODE = 'Code with market prefix: sh600519, sz000001, bj920001, hk00700, usAAPL'
const CODES = 'One code or several, comma-separated, with market prefix (sh600519,hk00700,usAAPL)'
const DATE = 'YYYY-MM-DD'

/** Rows shown in the text answer (and asked of routes that take a row count). */
export const DEFAULT_ROW_LIMIT = 100
export const limitArg = z.number().int().min(1).max(1000).optional().describe(`Rows shown, 1..1000 (default ${DEFAULT_ROW_LIMIT})`)

const OVERVIEW_TYPES = ['summary', 'trade', 'interval', 'technical', 'margin', 'valuation', 'rotation', 'updown'] as const
const COMPANY_TOPICS = ['finance', 'dividend', 'shareholder', 'events', 'chip', 'fund', 'sector-valuation'] as const

export const TOOLS: readonly ToolSpec[] = [
  tool({
    name: 'quote',
    title: 'Quotes',
    description: 'Real-time quote with recent daily bars (newest first; the first bar is today, its `last` the current price). Stocks, indexes, ETFs, HK, US, futures, forex.',
    input: { code: z.string().describe(CODES), count: z.number().int().optional().describe('Daily bars per code (default 30)') },
    request: ({ code, count }) => ({ path: '/v1/quote', query: { code, count } }),
  }),
  tool({
    name: 'kline',
    title: 'K-lines',
    description: 'K-line (OHLCV) bars, newest first. Daily and longer periods are forward-adjusted; minute periods need tier standard.',
    input: {
      code: z.string().describe(CODES),
      period: z.enum(['day', 'week', 'month', 'season', 'year', 'm1', 'm5', 'm15', 'm30', 'm60', 'm120']).optional().describe('Bar period (default day)'),
      count: z.number().int().optional().describe('Bars per code (default 30)'),
      start: z.string().optional().describe(`Range start ${DATE}, with end`),
      end: z.string().optional().describe(`Range end ${DATE}, inclusive`),
    },
    request: ({ code, period, count, start, end }) => ({ path: '/v1/kline', query: { code, period, count, start, end } }),
  }),
  tool({
    name: 'orderbook',
    title: 'Order book and snapshot',
    description: 'Five-level order book of an A-share stock, ETF or convertible bond; with snapshot=true the 35-field profile (valuation, market cap, limit prices; tier pro).',
    input: { code: z.string().describe(CODE), snapshot: z.boolean().optional().describe('true: the full snapshot instead of the book') },
    request: ({ code, snapshot }) => ({ path: snapshot ? '/v1/snapshot' : '/v1/orderbook', query: { code } }),
  }),
  tool({
    name: 'technical',
    title: 'Technical indicators',
    description: 'The 55 indicator columns (MA, EMA, MACD, KDJ, RSI, BOLL, ATR, DMI, …) of the latest daily bar of one code, or of many codes on one date (codes; tier pro).',
    input: {
      code: z.string().optional().describe(CODE),
      codes: z.string().optional().describe('Comma-separated codes for a batch (tier pro)'),
      date: z.string().optional().describe(`Batch date ${DATE} (default latest)`),
    },
    request: ({ code, codes, date }) =>
      codes ? { path: '/v1/technical-batch', query: { codes, date } } : code ? { path: '/v1/technical', query: { code } } : { refused: 'give code (one symbol) or codes (a batch)' },
  }),
  tool({
    name: 'screen',
    title: 'Stock screener',
    description:
      'Screen a market by factor expression (e.g. `pe_ttm < 15 and roe > 10`; see /openapi.json for the grammar and factors) or by preset.',
    input: {
      expr: z.string().optional().describe('Factor expression'),
      preset: z
        .enum(['LowPE', 'LowPB', 'HighDividend', 'PEG', 'HighROE', 'Value', 'Quality', 'Growth', 'SmallCap', 'LargeCap', 'CashCow', 'LowPS', 'GoldenCross', 'Oversold', 'Overbought', 'BullishAlignment', 'AboveMA250', 'BollingerBreakout', 'VolumeSurge', 'Momentum', 'HKLowPE', 'USLargeCap'])
        .optional()
        .describe('A preset instead of expr'),
      market: z.enum(['hs', 'hk', 'us']).optional().describe('hs A-shares (default), hk, us'),
      orderby: z.string().optional().describe('Sort factor'),
      desc: z.boolean().optional().describe('Descending (default true)'),
      limit: limitArg.describe('Rows, 1..500 (default 30)'),
    },
    request: ({ expr, preset, market, orderby, desc, limit }) => ({ path: '/v1/screen', query: { expr, preset, market, orderby, desc, limit } }),
  }),
  tool({
    name: 'company',
    title: 'Company data',
    description: 'One A-share company: finance (statements), dividend, shareholder, events, chip (cost distribution), fund (money flow) or sector-valuation.',
    input: { code: z.string().describe(CODE), topic: z.enum(COMPANY_TOPICS).describe('What to return') },
    request: ({ code, topic }) => ({ path: `/v1/${topic}`, query: { code } }),
  }),
  tool({
    name: 'search',
    title: 'Search',
    description: 'Find stocks, ETFs, indexes, sectors, HK and US names by code, Chinese name (茅台) or pinyin initials (gzmt).',
    input: { q: z.string().describe('Code, name or pinyin initials') },
    request: ({ q }) => ({ path: '/v1/search', query: { q } }),
  }),
  tool({
    name: 'market',
    title: 'Market overview',
    description:
      'Whole-market views: hot (most-followed stocks), changedist (advancers/decliners by change), or a market-overview type: ' +
      'summary, trade, interval, technical, margin, valuation, rotation, updown.',
    input: { view: z.enum(['hot', 'changedist', ...OVERVIEW_TYPES]).describe('Which view'), limit: limitArg },
    request: ({ view, limit }) =>
      view === 'hot'
        ? { path: '/v1/hot', query: { limit: limit === undefined ? undefined : Math.min(limit, 100) } }
        : view === 'changedist'
          ? { path: '/v1/changedist', query: {} }
          : { path: '/v1/market-overview', query: { type: view } },
  }),
  tool({
    name: 'trade_calendar',
    title: 'Trading calendar',
    description: 'Shanghai/Shenzhen trading days: one date, a start/end range, a year, or (nothing) the current month.',
    input: {
      date: z.string().optional().describe(DATE),
      start: z.string().optional().describe(`${DATE}, with end`),
      end: z.string().optional().describe(DATE),
      year: z.string().optional().describe('Four digits'),
      trading_only: z.boolean().optional().describe('Only trading days'),
    },
    request: ({ date, start, end, year, trading_only }) => ({ path: '/v1/trade-calendar', query: { date, start, end, year, trading_only } }),
  }),
  tool({
    name: 'research',
    title: 'Research digests',
    description: 'Broker research digests (rating, target price, forecasts): the latest of the market or of one stock; mode detail adds a consensus line.',
    input: {
      symbol: z.string().optional().describe('One A-share stock (required for detail)'),
      mode: z.enum(['list', 'detail']).optional().describe('list (default) or detail'),
      limit: limitArg.describe('Digests, 1..100 (default 30)'),
    },
    request: ({ symbol, mode, limit }) => ({ path: '/v1/dehydrated', query: { symbol, mode, limit } }),
  }),
  tool({
    name: 'call_endpoint',
    title: 'Any GET /v1 endpoint',
    description:
      'Call any other GET /v1 endpoint with its query parameters, e.g. /v1/macro, /v1/calendar, /v1/ipo, /v1/block-trade, /v1/kline-full, /v1/industry-chain, /v1/playbooks, /v1/usage. Parameters: /openapi.json.',
    input: {
      path: z.string().describe('Path starting with /v1/'),
      params: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional().describe('Query parameters'),
    },
    request: ({ path, params }) =>
      /^\/v1\/[a-z0-9-]+$/.test(path) ? { path, query: params ?? {} } : { refused: `path must be a /v1 endpoint such as /v1/macro, not ${quotedExcerpt(path)}` },
  }),
]
