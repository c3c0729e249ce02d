/**
 * Scheduled work, dispatched by cron expression (wrangler.toml [triggers]). The jobs themselves
 * arrive with the history store (issue 4); until then a trigger logs loudly that nothing ran,
 * rather than pretending to have built anything.
 */
export type Job = (event: ScheduledController, env: Env, ctx: ExecutionContext) => Promise<void>

export const JOBS: Record<string, Job> = {}

export async function runScheduled(event: ScheduledController, env: Env, ctx: ExecutionContext): Promise<void> {
  const job = JOBS[event.cron]
  if (!job) {
    console.error(`scheduled: no job registered for cron '${event.cron}' (history store not built yet)`)
    return
  }
  await job(event, env, ctx)
}
