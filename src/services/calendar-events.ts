import { fetchDisclosures, fetchDividendsBetween, fetchLockupsBetween } from '../channels/eastmoney/calendar'
import { fetchMeetingsBetween, fetchRightsIssuesBetween } from '../channels/eastmoney/calendar-corporate'
import { fetchCompanyEvents } from '../channels/eastmoney/company-events'
import { fetchIpos } from '../channels/eastmoney/ipo'
import type { Instrument } from '../domain/instrument'
import type { ReportSeason } from '../domain/report-seasons'
import { askWith } from './ask'

export type { DisclosureEvent, DividendEvent, LockupEvent } from '../channels/eastmoney/calendar'
export type { MeetingEvent, RightsIssueEvent } from '../channels/eastmoney/calendar-corporate'
export type { CompanyEvent } from '../channels/eastmoney/company-events'
export type { Ipo } from '../channels/eastmoney/ipo'

// The market's calendar (/v1/calendar, /v1/ipo) and one company's (/v1/events): Eastmoney's datacenter reports.

/** Scheduled report disclosures of `season` between `from` and `to`, at most `limit`. */
export const disclosures = (season: ReportSeason, from: string, to: string, limit: number) => askWith((ctx) => fetchDisclosures(ctx, season, from, to, limit))

/** Dividend events (record, ex- and payment dates) between `from` and `to`, at most `limit`. */
export const dividendsBetween = (from: string, to: string, limit: number) => askWith((ctx) => fetchDividendsBetween(ctx, from, to, limit))

/** Lock-up expiries between `from` and `to`, at most `limit`. */
export const lockupsBetween = (from: string, to: string, limit: number) => askWith((ctx) => fetchLockupsBetween(ctx, from, to, limit))

/** Shareholder meetings between `from` and `to`, at most `limit`. */
export const meetingsBetween = (from: string, to: string, limit: number) => askWith((ctx) => fetchMeetingsBetween(ctx, from, to, limit))

/** Rights issues between `from` and `to`, at most `limit`. */
export const rightsIssuesBetween = (from: string, to: string, limit: number) => askWith((ctx) => fetchRightsIssuesBetween(ctx, from, to, limit))

/** IPOs with events from `from` on, as the upstream knows them today. */
export const ipos = (from: string) => askWith((ctx) => fetchIpos(ctx, from))

/** One stock's company events from `from` on (and scheduled ones ahead): the company calendar `RPT_ORGOP_ALL`. */
export const companyEvents = (inst: Instrument, from: string) => askWith((ctx) => fetchCompanyEvents(ctx, inst, from))
