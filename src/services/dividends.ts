import { fetchDividendPlans, type DividendPlan } from '../channels/eastmoney/dividend-plans'
import { fetchSinaDividends } from '../channels/sina/dividends'
import type { Instrument } from '../domain/instrument'
import type { Ask } from './types'

export { planDate, type DividendPlan } from '../channels/eastmoney/dividend-plans'

/**
 * One A-share stock's distribution plans, newest first: Eastmoney's `RPT_SHAREBONUS_DET`, or Sina's
 * distribution page (`vISSUE_ShareBonus`, no report period, first announcement, payment date or
 * plan text). /v1/dividend.
 */
export const dividendPlans =
  (inst: Instrument): Ask<DividendPlan[]> =>
  (channel, ctx) =>
    channel === 'sina' ? fetchSinaDividends(ctx, inst) : fetchDividendPlans(ctx, inst)
