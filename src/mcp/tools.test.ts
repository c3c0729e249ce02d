import { describe, expect, it } from 'vitest'
import { TOOLS, type ToolRequest } from './tools'

const request = (name: string, args: Record<string, unknown>): ToolRequest => TOOLS.find((t) => t.name === name)!.request(args as never)

describe('the tool table', () => {
  it('has 8 to 12 uniquely named tools, each with a title, a description and only GET /v1 requests', () => {
    expect(TOOLS.length).toBeGreaterThanOrEqual(8)
    expect(TOOLS.length).toBeLessThanOrEqual(12)
    expect(new Set(TOOLS.map((t) => t.name)).size).toBe(TOOLS.length)
    for (const t of TOOLS) {
      expect(t.name).toMatch(/^[a-z_]+$/)
      expect(t.title.length).toBeGreaterThan(0)
      expect(t.description.length).toBeLessThan(300)
    }
  })

  it('maps arguments to the route and its parameters, leaving what was not given undefined', () => {
    expect(request('kline', { code: 'sh600519', period: 'week' })).toEqual({ path: '/v1/kline', query: { code: 'sh600519', period: 'week', count: undefined, start: undefined, end: undefined } })
    expect(request('orderbook', { code: 'sh600519' })).toMatchObject({ path: '/v1/orderbook' })
    expect(request('orderbook', { code: 'sh600519', snapshot: true })).toMatchObject({ path: '/v1/snapshot' })
    expect(request('company', { code: 'sh600519', topic: 'sector-valuation' })).toEqual({ path: '/v1/sector-valuation', query: { code: 'sh600519' } })
    expect(request('market', { view: 'margin' })).toEqual({ path: '/v1/market-overview', query: { type: 'margin' } })
    expect(request('market', { view: 'hot', limit: 500 })).toEqual({ path: '/v1/hot', query: { limit: 100 } })
    expect(request('research', { symbol: 'sh600519', mode: 'detail' })).toMatchObject({ path: '/v1/dehydrated', query: { symbol: 'sh600519', mode: 'detail' } })
  })

  it('technical: one code, or a batch of codes, and says which to give when neither is', () => {
    expect(request('technical', { code: 'sh600519' })).toEqual({ path: '/v1/technical', query: { code: 'sh600519' } })
    expect(request('technical', { codes: 'sh600519,sz000001', date: '2026-11-20' })).toEqual({ path: '/v1/technical-batch', query: { codes: 'sh600519,sz000001', date: '2026-11-20' } })
    expect(request('technical', {})).toEqual({ refused: 'give code (one symbol) or codes (a batch)' })
  })

  it('call_endpoint reaches a /v1 endpoint and nothing else', () => {
    expect(request('call_endpoint', { path: '/v1/macro', params: { region: 'us' } })).toEqual({ path: '/v1/macro', query: { region: 'us' } })
    expect(request('call_endpoint', { path: '/v1/block-trade' })).toEqual({ path: '/v1/block-trade', query: {} })
    for (const path of ['/mcp', '/v1', '/v1/', '/v1/quote?code=x', '/v1/../__jobs/run', '//evil.example/v1/quote', 'http://x/v1/quote', '/V1/quote'])
      expect(request('call_endpoint', { path }), path).toHaveProperty('refused')
  })
})
