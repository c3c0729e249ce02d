import { fetchFinance } from '../channels/eastmoney/finance'
import { fetchSinaFinance } from '../channels/sina/finance'
import type { Statements } from '../domain/finance'
import type { Instrument } from '../domain/instrument'
import type { Ask } from './types'

/**
 * One A-share stock's latest `num` periods of income, balance and cash-flow statements: Eastmoney's
 * summary reports (`RPT_DMSK_FN_*`), or Sina's `getFinanceReport2022`. /v1/finance.
 */
export const statements =
  (inst: Instrument, num: number): Ask<Statements> =>
  (channel, ctx) =>
    channel === 'sina' ? fetchSinaFinance(ctx, inst, num) : fetchFinance(ctx, inst, num)
