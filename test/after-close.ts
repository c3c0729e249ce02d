import { env } from 'cloudflare:test'
import { market } from '../src/emulator/market/index'
import { buildHistory } from '../src/jobs/build-history'
import { collectRows, collectStates, stagedDayRows, writeDayTables } from '../src/jobs/day-tables'
import { channelSource } from '../src/jobs/eastmoney-source'
import { writeHistory } from '../src/store/history'
import type { History } from '../src/store/shapes'
import { deletePrefix } from '../src/store/r2-json'
import { services } from './store-app'

/**
 * Histories through `through` and that session's tables with their states, as the after-close job
 * writes them. Unless `keep`, the tables and states of every other day are deleted first (so that
 * `through`'s are the newest); with `keep`, those of the days before stay, as in production.
 */
export async function afterClose(codes: string[], through: string, now: number, { keep = false } = {}): Promise<History[]> {
  if (!keep) {
    await deletePrefix(env.STORE, 'technicals/')
    await deletePrefix(env.STORE, 'meta/technicals-latest')
  }
  const source = channelSource(services)
  const hs: History[] = []
  for (const code of codes) {
    const h = (await buildHistory(source, code, through))!
    await writeHistory(env.STORE, h)
    hs.push(h)
  }
  const lines = hs.flatMap((h) => stagedDayRows(h, through, through)).map((l) => l.slice(11))
  await writeDayTables(env.STORE, through, collectRows(lines).values(), Object.fromEntries(codes.map((c) => [c, market.byCode(c)!.name])), now, undefined, collectStates(lines))
  services.store.forgetLatestTechnicals() // as the jobs do after writing a table
  return hs
}
