import { fetchSurvey } from '../channels/eastmoney/f10-business'
import { askWith } from './ask'

export type { CompanySurvey } from '../channels/eastmoney/f10-business'

/** One company's survey (business and scope) from Eastmoney's F10 pages; null when the page knows no such company. /v1/industry-chain. */
export const companySurvey = (code: string) => askWith((ctx) => fetchSurvey(ctx, code))
