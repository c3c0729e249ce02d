/** Finds stocks in a given state at a clock, by asking the emulator's market model directly. */
import { hasTraded, limitPrices, market } from '../src/emulator/market'

/** The first A-share stocks closing at limit-up and at limit-down at `clock` (ISO with offset). */
export function limitStocks(clock: string): { up: string; down: string } {
  const now = Date.parse(clock)
  let up = ''
  let down = ''
  for (const inst of market.instruments()) {
    if (inst.kind !== 'stock' || inst.limit === null || !/^(sh|sz|bj)/.test(inst.code)) continue
    const q = market.live(inst, now)
    if (!hasTraded(q)) continue
    const [d, u] = limitPrices(q.bar.preClose, inst.limit, inst.decimals)
    if (!up && q.bar.close >= u) up = inst.code
    if (!down && q.bar.close <= d) down = inst.code
    if (up && down) return { up, down }
  }
  throw new Error(`no limit-up and limit-down stocks at ${clock}`)
}
