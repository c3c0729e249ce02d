/** K-line periods the API accepts, in the order /openapi.json lists them. */
export const PERIODS = ['day', 'week', 'month', 'season', 'year', 'm1', 'm5', 'm15', 'm30', 'm60', 'm120'] as const
export type Period = (typeof PERIODS)[number]

export const MINUTE_PERIODS = ['m1', 'm5', 'm15', 'm30', 'm60', 'm120'] as const
export type MinutePeriod = (typeof MINUTE_PERIODS)[number]

export function isMinutePeriod(p: Period): p is MinutePeriod {
  return p.startsWith('m') && p !== 'month'
}

