import { fetchDayFlow, fetchFlowRanks, fetchTodayFlow, flowSecid, type FlowRanks } from '../channels/eastmoney/money-flow'
import type { Instrument } from '../domain/instrument'
import { askWith } from './ask'

export { ORDER_CLASSES, type DayFlowRow, type FlowRanks, type TodayFlow } from '../channels/eastmoney/money-flow'

// Money flow by order class (/v1/fund): Eastmoney's push2 and push2his, each tried once more on its mirror host.

/** One A-share stock's money flow: today's by minute so far (null before it trades) and its past sessions. */
export const moneyFlow = (inst: Instrument) =>
  askWith(async (ctx) => {
    const [today, days] = await Promise.all([fetchTodayFlow(ctx, inst), fetchDayFlow(ctx, inst)])
    return { today, days }
  })

/** The whole market ranked by main net inflow today: a walk of about 56 pages. */
export const flowRanks = () => askWith((ctx) => fetchFlowRanks(ctx))

/** `inst`'s place in `ranked`, if it is ranked. */
export const flowRankOf = (ranked: FlowRanks, inst: Instrument): number | undefined => ranked.ranks.get(flowSecid(inst))
