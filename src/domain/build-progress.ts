/**
 * A history build's progress as the data routes send it while it runs (`progress` in their
 * `BUILDING` envelope; src/store/build-progress.ts works it out from the build's record).
 */
export interface BuildProgress {
  phase: 'histories' | 'day_blobs' | 'day_tables'
  percent: number
  stocks_done: number
  stocks_total: number
  months_done: number
  months_total: number
  from: string
  to: string
  started_at: string
}

/** The `error` text of a BUILDING answer. */
export function buildingMessage(what: string, p: BuildProgress): string {
  const step =
    p.phase === 'histories' ? `histories ${p.stocks_done} of ${p.stocks_total} stocks` : p.phase === 'day_blobs' ? `day blobs, ${p.months_done} of ${p.months_total} months` : 'technicals and factor tables of the last days'
  return `${what} is being built (${p.percent}% done: ${step}; started ${p.started_at}); try again in a few minutes`
}
