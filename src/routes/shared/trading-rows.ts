/**
 * Row schemas and mappers shared by /v1/fund and /v1/block-trade: one name per concept, units in
 * the descriptions, so the two endpoints print the same block trade the same way.
 */
import { z } from '@hono/zod-openapi'
import type { BlockTrade } from '../../services/trading-records'

/** How far back the board appearances and block trades reach. */
export const EVENT_WINDOW_DAYS = 365

export const BlockTradeRowSchema = z
  .object({
    code: z.string().openapi({ description: 'Stock code with prefix, e.g. `sh600519`' }),
    name: z.string().openapi({ description: 'Stock short name' }),
    date: z.string().openapi({ description: 'Trade date `YYYY-MM-DD` (Beijing)' }),
    price: z.number().openapi({ description: 'Deal price, CNY per share' }),
    close: z.number().openapi({ description: 'The stock\'s close that day, CNY' }),
    premium_pct: z.number().openapi({ description: 'Premium (+) or discount (−) of the deal price to the close, percent: (price ÷ close − 1) × 100' }),
    volume: z.number().openapi({ description: 'Shares traded' }),
    amount: z.number().openapi({ description: 'Deal amount, CNY' }),
    buyer: z.string().nullable().openapi({ description: 'Buying brokerage branch (`机构专用` = an institution seat); null when not published' }),
    seller: z.string().nullable().openapi({ description: 'Selling brokerage branch; null when not published' }),
    change_pct: z.number().nullable().openapi({ description: 'The stock\'s change that day, percent' }),
    float_pct: z.number().nullable().openapi({ description: 'Deal amount as a share of the float market cap, percent' }),
  })
  .openapi('BlockTradeRow')

export type BlockTradeRow = z.infer<typeof BlockTradeRowSchema>

const r = (x: number, d: number) => Math.round(x * 10 ** d) / 10 ** d

export const blockTradeRow = (t: BlockTrade): BlockTradeRow => ({
  code: t.code,
  name: t.name,
  date: t.date,
  price: t.price,
  close: t.close,
  premium_pct: r(t.premiumPct, 2),
  volume: t.volume,
  amount: t.amount,
  buyer: t.buyer,
  seller: t.seller,
  change_pct: t.changePct === null ? null : r(t.changePct, 2),
  float_pct: t.floatPct === null ? null : r(t.floatPct, 4),
})

/** `source` for a call served by Eastmoney. */
export const eastmoneySource = (prefix: string) => `${prefix}eastmoney`

