import type { Services } from '../services/types'
import { refreshCalendar } from './calendar-refresh'
import { foreignFactorsCron } from './foreign-factors'
import { runIndustryChainJob } from './industry-chain'
import { marketDayCron } from './market-day'
import { playbookBacktestCron } from './playbook-backtest'

/** One scheduled job: gets the trigger, the bindings, and the deployment's services. */
export type Job = (event: ScheduledController, env: Env, ctx: ExecutionContext, services: Services) => Promise<void>

/**
 * Cron expression → job, matching wrangler.toml [triggers]. Data, so the schedule reads in one
 * place; `scheduled()` only dispatches.
 */
export const JOBS: Record<string, Job> = {
  // Every 10 minutes 15:00–18:50 Beijing on weekdays: after 15:30 the first run writes the day's
  // market-kline blob, the following ones append the day to each stock's history 400 at a time
  // (resumable); once the day is done a run changes nothing.
  '*/10 7-10 * * 1-5': marketDayCron,
  // Every 10 minutes 19:00–23:50 Beijing on weekdays, after the after-close job: the playbook
  // backtest over the day's histories, 20 s of chunks per run (resumable); once its evidence is of
  // the latest day a run changes nothing. The whole market is 56 chunks of 100 stocks, at most 6 a run
  // (10 runs, 36 s of compute measured on the emulator); the window holds 30.
  '*/10 11-15 * * 1-5': playbookBacktestCron,
  // 04:00 Beijing: learn newly published exchange calendars (SZSE), keeping the bundled table as fallback.
  '0 20 * * *': (event, env, ctx, services) => refreshCalendar(event, env, ctx, { fetch: services.channelContext.fetch, now: services.now, forgetCalendar: services.store.forgetCalendar }),
  // 16:40 and 17:40 Beijing on weekdays: the HK factor table of the day (HK closes 16:10; final from 16:30).
  '40 8,9 * * 1-5': foreignFactorsCron('hk'),
  // 21:45 and 22:45 UTC Monday–Friday = after 16:30 US Eastern in summer (20:30 UTC) and winter
  // (21:30 UTC) alike, i.e. 05:45 / 06:45 Beijing the next day: the US factor table of the session.
  '45 21,22 * * 1-5': foreignFactorsCron('us'),
  // Every 20 minutes 00:00–05:40 Beijing: industry-chain members, 400 upstream requests a run
  // (boards, then compositions); the first whole pass takes one night, later runs refresh.
  '*/20 16-21 * * *': async (_event, env, _ctx, services) => {
    const themes = (await services.store.chainThemes({ env })).list
    const r = await runIndustryChainJob({ store: env.STORE, ctx: services.channelContext, now: services.now, themes })
    console.log(`industry-chain: ${JSON.stringify(r)}`)
  },
}

/** The `scheduled` export: runs the job registered for the trigger's cron, loudly when there is none. */
export function scheduledHandler(services: Services): ExportedHandlerScheduledHandler<Env> {
  return async (event, env, ctx) => {
    const job = JOBS[event.cron]
    if (!job) {
      console.error(`scheduled: no job registered for cron '${event.cron}'`)
      return
    }
    await job(event, env, ctx, services)
  }
}
