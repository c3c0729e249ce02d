import { fetchMacroGroup } from '../channels/eastmoney/macro'
import type { MacroSeriesSpec } from '../data/macro-catalogue'
import { askWith } from './ask'

export { groupOf, type MacroPoint } from '../channels/eastmoney/macro'

/** The latest `count` points of every series of one report (`specs` share its {@link groupOf}), by series name: Eastmoney's datacenter. /v1/macro. */
export const macroGroup = (specs: MacroSeriesSpec[], count: number) => askWith(async (ctx) => Object.fromEntries(await fetchMacroGroup(ctx, specs, count)))
