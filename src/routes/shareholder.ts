import { z, type OpenAPIHono } from '@hono/zod-openapi'
import { sectionTable } from '../http/csv-answer'
import type { Context } from 'hono'
import { admittedRoute, registerAdmitted } from '../access/route'
import type { AccessPolicy } from '../access/tiers'
import type { ChannelName } from '../domain/channel-name'
import { beijing } from '../domain/dates'
import type { Instrument } from '../domain/instrument'
import type { AppEnv } from '../http/context'
import { answer } from '../http/answer'
import type { Services } from '../services/types'
import { ccassRecord, hkHolders, HOLDER_COUNT_PERIODS, shareholders, type CcassSnapshot, type HkHolder, type Holder, type HolderCountRow } from '../services/holders'
import { oneStock } from './shared/stock-code'
import { AS_OF, COMMON_ERRORS, envelopeSchema } from '../http/envelope-schema'
import { staleOf } from '../services/reference'

/** Who may call it and what it costs: the pro group, trial and above. */
const POLICY: AccessPolicy = { group: 'keyed', minTier: 'trial', cost: 1, counted: true }

/** The A-share sections, in order. */
const A_SHARE_SECTIONS = [
  { slug: 'top10_holders', title: 'Top 10 shareholders' },
  { slug: 'top10_float_holders', title: 'Top 10 float shareholders' },
  { slug: 'holder_count', title: 'Number of shareholders' },
] as const
/**
 * The HK sections, in order. `shareholders` comes from Eastmoney's HK F10
 * (RPT_HKF10_EQUITYCHG_HOLDER); `holder_distribution` and `institutional_holdings` from HKEXnews'
 * CCASS Shareholding Search (src/channels/hkex/ccass.ts), the newest day's record.
 */
const HK_SECTIONS = [
  { slug: 'shareholders', title: 'Major shareholders (disclosed interests)' },
  { slug: 'holder_distribution', title: 'Holder distribution (CCASS)' },
  { slug: 'institutional_holdings', title: 'Institutional holdings (CCASS participants)' },
] as const
const CCASS_SECTIONS = ['holder_distribution', 'institutional_holdings'] as const

const Query = z.object({
  code: z.string({ error: 'code is required' }).openapi({ description: 'One A-share stock (sh, sz, bj) or HK stock (hk) with its prefix', example: 'sh600519' }),
})

const HolderRow = z
  .object({
    end_date: z.string().openapi({ description: 'Report period end `YYYY-MM-DD`' }),
    rank: z.number().int().openapi({ description: 'Rank by shares held, 1..10' }),
    holder_name: z.string().openapi({ description: 'Holder name as published' }),
    holder_type: z.string().nullable().openapi({ description: 'Holder type as the upstream classifies it (e.g. 证券投资基金, 个人, 其他)' }),
    shares_type: z.string().nullable().openapi({ description: 'Share class held (e.g. 流通A股, 限售流通A股)' }),
    shares: z.number().openapi({ description: 'Shares held' }),
    ratio: z.number().openapi({ description: 'Percent of total shares (top10_holders) or of float shares (top10_float_holders)' }),
    change: z.number().nullable().openapi({ description: 'Shares more (+) or fewer (−) than the previous period; null for a holder new to the list' }),
    change_pct: z.number().nullable().openapi({ description: 'That change in percent of the previous holding; null when new' }),
    change_text: z.string().nullable().openapi({ description: 'The upstream\'s word for the change: 新进 (new), 增加, 减少, 不变' }),
    notice_date: z.string().nullable().openapi({ description: 'Date the period\'s holders were published' }),
  })
  .openapi('HolderRow')

const HkHolderRow = z
  .object({
    end_date: z.string().openapi({ description: 'Report period end `YYYY-MM-DD` (HK: half years)' }),
    holder_name: z.string().openapi({ description: 'Holder name as disclosed' }),
    holder_type: z.string().nullable().openapi({ description: 'Kind of interest as the upstream words it: 主要股东 (substantial shareholder, 5% or more) or 董事 (director)' }),
    identity: z.string().nullable().openapi({ description: 'Capacity: 实益拥有人 (beneficial owner), 受控法团权益 (through controlled corporations), 投资经理 …' }),
    shares_type: z.string().nullable().openapi({ description: 'Share class (e.g. 普通股)' }),
    shares: z.number().int().openapi({ description: 'Shares of the interest (long position)' }),
    ratio: z.number().openapi({ description: 'Percent of the issued shares. Interests held through a chain of corporations are disclosed by each, so the ratios may add up past 100' }),
    direct_shares: z.number().nullable().openapi({ description: 'Shares held directly (the rest through others)' }),
    change_pct: z.number().nullable().openapi({ description: 'Change of the holding since the report before, percent; null when the upstream gives none' }),
    notice_date: z.string().nullable().openapi({ description: 'Date the period\'s holders were published' }),
  })
  .openapi('HkHolderRow')

const CCASS_DATE = 'CCASS record date `YYYY-MM-DD`: the newest day HKEX shows (a Sunday or HK holiday shows the record before it)'

const DISTRIBUTION_KEYS = ['market_intermediaries', 'consenting_investor_participants', 'non_consenting_investor_participants', 'total_in_ccass', 'not_in_ccass', 'issued'] as const

const HkDistributionRow = z
  .object({
    date: z.string().openapi({ description: CCASS_DATE }),
    key: z.enum(DISTRIBUTION_KEYS).openapi({
      description:
        'The row: a CCASS category (market_intermediaries: banks, brokers and clearing houses; consenting_investor_participants and ' +
        'non_consenting_investor_participants: investors holding in CCASS in their own name), total_in_ccass (their sum), ' +
        'not_in_ccass (issued − total_in_ccass: registered or certificated shares) or issued (total issued shares)',
    }),
    category: z.string().openapi({ description: 'The category as HKEX prints it (`Market Intermediaries` …, `Total`); `Not in CCASS` and `Issued shares` are our labels' }),
    shareholding: z.number().int().nullable().openapi({ description: 'Shares. not_in_ccass is our arithmetic on the page\'s own figures (issued − CCASS total); issued is HKEX\'s last updated figure. null when HKEX prints none' }),
    participants: z.number().int().nullable().openapi({ description: 'Number of CCASS participants in the category; null for not_in_ccass and issued' }),
    percent_of_issued: z.number().nullable().openapi({ description: 'Percent of the issued shares as HKEX prints it (two decimals); for not_in_ccass our arithmetic, (issued − CCASS total) ÷ issued × 100 to two decimals; 100 for issued' }),
  })
  .openapi('HkHolderDistributionRow')

const HkParticipantRow = z
  .object({
    date: z.string().openapi({ description: CCASS_DATE }),
    participant_id: z.string().nullable().openapi({ description: 'CCASS participant ID (C… custodian banks, B… brokers, A00003/A00004 China Clearing for Stock Connect); null when HKEX prints none' }),
    name: z.string().openapi({ description: 'Participant name as HKEX prints it' }),
    shareholding: z.number().int().openapi({ description: 'Shares the participant holds in CCASS, for itself and its clients' }),
    percent_of_issued: z.number().nullable().openapi({ description: 'Percent of the issued shares as HKEX prints it (two decimals)' }),
  })
  .openapi('HkCcassParticipantRow')

const HolderCount = z
  .object({
    end_date: z.string().openapi({ description: 'Report period end `YYYY-MM-DD`' }),
    totalSHNum: z.number().int().openapi({ description: 'Number of shareholders (accounts) at the period end' }),
    avgHoldShares: z.number().nullable().openapi({ description: 'Average shares per holder: total A shares / totalSHNum, as the upstream computes it' }),
    holder_change: z.number().nullable().openapi({ description: 'Holders more (+) or fewer (−) than the previous period' }),
    holder_change_pct: z.number().nullable().openapi({ description: 'That change in percent' }),
    avg_market_cap: z.number().nullable().openapi({ description: 'Average holding value per holder at the period-end close, CNY' }),
    total_market_cap: z.number().nullable().openapi({ description: 'Market cap at the period-end close, CNY' }),
    total_shares: z.number().nullable().openapi({ description: 'Total A shares' }),
    interval_change_pct: z.number().nullable().openapi({ description: 'Price change since the previous period end, percent (forward-adjusted)' }),
    notice_date: z.string().nullable().openapi({ description: 'Date the count was published' }),
  })
  .openapi('HolderCountRow')

const Section = z.object({
  title: z.string().openapi({ description: 'Section title' }),
  slug: z.string().openapi({ description: 'A-share: top10_holders, top10_float_holders, holder_count. HK: shareholders, holder_distribution, institutional_holdings' }),
  rows: z.array(z.union([HolderRow, HolderCount, HkHolderRow, HkDistributionRow, HkParticipantRow])).openapi({
    description: 'The section\'s rows (HolderRow for the top-10 sections, HolderCountRow for holder_count, HkHolderRow for HK shareholders, HkHolderDistributionRow for holder_distribution, HkCcassParticipantRow for institutional_holdings)',
  }),
})

const Sectioned = z
  .object({
    tables: z.array(Section).openapi({ description: 'Sections in order; do not index by position across markets' }),
    data: z.record(z.string(), z.array(z.union([HolderRow, HolderCount, HkHolderRow, HkDistributionRow, HkParticipantRow]))).openapi({ description: 'slug → rows (the same rows as in tables)' }),
  })
  .openapi('ShareholderData')

const Response = envelopeSchema('ShareholderEnvelope', Sectioned, AS_OF.date('the newest report period\'s end among the sections')).openapi({
  example: {
    ok: true,
    endpoint: 'shareholder',
    tier: 'pro',
    elapsed_ms: 55,
    source: 'eastmoney',
    as_of: '2026-09-30',
    data: {
      tables: [
        { title: 'Number of shareholders', slug: 'holder_count', rows: [{ end_date: '2026-09-30', totalSHNum: 183215, avgHoldShares: 6856.42, holder_change: 7783, holder_change_pct: 4.4366, avg_market_cap: 10423567.8, total_market_cap: 1909420656000, total_shares: 1256197800, interval_change_pct: -3.21, notice_date: '2026-10-25' }] },
      ],
      data: { holder_count: [{ end_date: '2026-09-30', totalSHNum: 183215, avgHoldShares: 6856.42, holder_change: 7783, holder_change_pct: 4.4366, avg_market_cap: 10423567.8, total_market_cap: 1909420656000, total_shares: 1256197800, interval_change_pct: -3.21, notice_date: '2026-10-25' }] },
    },
  },
})

const route = admittedRoute(POLICY, {
  method: 'get',
  path: '/v1/shareholder',
  operationId: 'shareholder',
  tags: ['Pro'],
  summary: 'Shareholders of one stock, in sections',
  description:
    'Sectioned: `data.tables` is the ordered list of `{title, slug, rows}`, `data.data` maps slug → rows. A-share sections: ' +
    '`top10_holders` and `top10_float_holders` (the latest reported period) and `holder_count` (the last ' +
    `${HOLDER_COUNT_PERIODS} periods, newest first, with \`totalSHNum\` and \`avgHoldShares\`). Source: Eastmoney datacenter reports RPT_DMSK_HOLDERS, ` +
    'RPT_F10_EH_FREEHOLDERS and RPT_HOLDERNUM_DET; when they fail, Sina\'s main-shareholder page (vCI_StockHolder): the top ten and the holder counts ' +
    '(whole-share averages), no float holders (empty, with a `notice`) and no changes (null). Kept for every caller for six hours; when every upstream ' +
    'fails, the last good answer is served with `stale` (up to 7 days old). HK codes: sections `shareholders` (the newest half-year report\'s disclosed interests, ' +
    'substantial shareholders and directors, from Eastmoney HK F10 RPT_HKF10_EQUITYCHG_HOLDER), and from HKEXnews\' CCASS Shareholding Search ' +
    '(the newest day\'s record, each row with its date): `holder_distribution` (shares held in CCASS per category, the CCASS total, the shares ' +
    'not in CCASS and the issued shares) and `institutional_holdings` (every listed CCASS participant, largest first: the custodian banks, ' +
    'brokers and China Clearing for Stock Connect that hold the shares for their clients, not the beneficial owners). When one upstream fails ' +
    'or has nothing, its sections are empty and `notice` says why; ok:false only when neither has anything. ' +
    'Other codes: 422.',
  request: { query: Query },
  responses: {
    200: { description: 'Sections (ok:false when the upstream failed or had nothing; not counted)', content: { 'application/json': { schema: Response } } },
    ...COMMON_ERRORS,
  },
}, {
  check: (_c, q) => void oneStock(q.code, 'shareholder', ['stock', 'hk']),
  csv: sectionTable({ top10_holders: HolderRow, top10_float_holders: HolderRow, holder_count: HolderCount, shareholders: HkHolderRow, holder_distribution: HkDistributionRow, institutional_holdings: HkParticipantRow }),
})

const holderRow = (h: Holder) => ({
  end_date: h.endDate,
  rank: h.rank,
  holder_name: h.name,
  holder_type: h.type,
  shares_type: h.sharesType,
  shares: h.shares,
  ratio: h.ratio,
  change: h.change,
  change_pct: h.changePct,
  change_text: h.changeText,
  notice_date: h.noticeDate,
})

const countRow = (r: HolderCountRow) => ({
  end_date: r.endDate,
  totalSHNum: r.holders,
  avgHoldShares: r.avgShares,
  holder_change: r.change,
  holder_change_pct: r.changePct,
  avg_market_cap: r.avgMarketCap,
  total_market_cap: r.totalMarketCap,
  total_shares: r.totalShares,
  interval_change_pct: r.intervalChangePct,
  notice_date: r.noticeDate,
})

const hkRow = (h: HkHolder) => ({
  end_date: h.endDate,
  holder_name: h.name,
  holder_type: h.equityType,
  identity: h.identity,
  shares_type: h.sharesType,
  shares: h.shares,
  ratio: h.ratio,
  direct_shares: h.directShares,
  change_pct: h.changePct,
  notice_date: h.noticeDate,
})

/**
 * The CCASS summary as rows: each category and the Total as printed, then the shares not in CCASS
 * (issued − Total, our arithmetic on the page's figures) and the issued shares.
 */
function distributionRows(s: CcassSnapshot) {
  const row = (key: (typeof DISTRIBUTION_KEYS)[number], category: string, shareholding: number | null, participants: number | null, percent: number | null) => ({
    date: s.date, key, category, shareholding, participants, percent_of_issued: percent,
  })
  const outside = s.issued - s.total.shareholding!
  return [
    ...s.categories.map((c) => row(c.key, c.label, c.shareholding, c.participants, c.percent)),
    row('total_in_ccass', s.total.label, s.total.shareholding, s.total.participants, s.total.percent),
    row('not_in_ccass', 'Not in CCASS', outside, null, Math.round((outside / s.issued) * 1e4) / 100),
    row('issued', 'Issued shares', s.issued, null, 100),
  ]
}

const EMPTY = { tables: [], data: {} }

/**
 * The HK sections: Eastmoney's disclosed interests and the CCASS record, asked together. Served
 * when either has rows; an empty side's sections come back empty with the reason in `notice`,
 * never filled in. ok:false only when neither has anything.
 */
async function hkAnswer(c: Context<AppEnv>, services: Services, inst: Instrument) {
  // One CCASS search per stock per HK day (HK and Beijing share UTC+8) serves every caller; the record changes once a day.
  const day = beijing(services.now()).date
  const [hk, ccass] = await Promise.all([
    services.reference.fetch(c, `hk-shareholder?${inst.symbol}`, ['eastmoney'], hkHolders(inst), { cls: 'shareholder' }),
    services.reference.fetch(c, `ccass?${inst.symbol}&${day}`, ['hkex'], ccassRecord(inst), { cls: 'shareholder', key: `ccass?${inst.symbol}` }),
  ])
  const holders = hk.ok && hk.value.length ? hk.value : null
  const record = ccass.ok ? ccass.value : null
  const holdersWhy = hk.ok ? 'Eastmoney has no disclosed shareholders of this stock' : hk.code === 'NO_DATA' ? `Eastmoney has nothing (${hk.error})` : `Eastmoney failed (${hk.error})`
  const recordWhy = ccass.ok ? '' : ccass.code === 'NO_DATA' ? `HKEX CCASS has no record of this stock (${ccass.error})` : `HKEX CCASS failed (${ccass.error})`
  if (!holders && !record) {
    const failed = (!hk.ok && hk.code === 'UPSTREAM_UNAVAILABLE') || (!ccass.ok && ccass.code === 'UPSTREAM_UNAVAILABLE')
    return answer(c, 'shareholder', { ok: false, source: 'none', data: EMPTY, code: failed ? 'UPSTREAM_UNAVAILABLE' : 'NO_DATA', error: `${inst.code}: ${holdersWhy}; ${recordWhy}` })
  }
  const rows: Record<(typeof HK_SECTIONS)[number]['slug'], object[]> = {
    shareholders: holders ? holders.map(hkRow) : [],
    holder_distribution: record ? distributionRows(record) : [],
    institutional_holdings: record ? record.participants.map((p) => ({ date: record.date, participant_id: p.id, name: p.name, shareholding: p.shareholding, percent_of_issued: p.percent })) : [],
  }
  const tables = HK_SECTIONS.map((t) => ({ title: t.title, slug: t.slug, rows: rows[t.slug] }))
  const why = [holders ? '' : `shareholders is empty: ${holdersWhy}`, record ? '' : `${CCASS_SECTIONS.join(' and ')} are empty: ${recordWhy}`].filter(Boolean).join('; ')
  return answer(c, 'shareholder', {
    ok: true,
    source: holders && hk.ok ? hk.source : services.sourcePrefix + 'hkex',
    data: { tables, data: rows },
    as_of: holders ? holders[0].endDate : record!.date,
    ...staleOf([hk, ccass], why || undefined),
  })
}

/** The channels that serve an A-share stock's shareholders, in order. */
const SHAREHOLDER_CHANNELS: readonly ChannelName[] = ['eastmoney', 'sina']

/** GET /v1/shareholder */
export function registerShareholder(app: OpenAPIHono<AppEnv>, services: Services) {
  registerAdmitted(app, route, async (c) => {
    const inst = oneStock(c.req.valid('query').code, 'shareholder', ['stock', 'hk'])
    if (inst.kind === 'hk') return hkAnswer(c, services, inst)
    const r = await services.reference.fetch(c, `shareholder?${inst.code}`, SHAREHOLDER_CHANNELS, shareholders(inst), { cls: 'shareholder' })
    if (!r.ok) return answer(c, 'shareholder', { ok: false, source: r.source, data: EMPTY, code: r.code, error: `${inst.code}: ${r.error}` })
    const source = r.source
    const s = r.value
    if (!s.top.length && !s.float.length && !s.counts.length) {
      return answer(c, 'shareholder', { ok: false, source, data: EMPTY, code: 'NO_DATA', error: `${inst.code}: the upstream has no shareholder report of this stock` })
    }
    const rows: Record<(typeof A_SHARE_SECTIONS)[number]['slug'], object[]> = {
      top10_holders: s.top.map(holderRow),
      top10_float_holders: s.float.map(holderRow),
      holder_count: s.counts.map(countRow),
    }
    const tables = A_SHARE_SECTIONS.map((t) => ({ title: t.title, slug: t.slug, rows: rows[t.slug] }))
    const asOf = [s.top[0]?.endDate, s.float[0]?.endDate, s.counts[0]?.endDate].filter(Boolean).sort().pop()
    // Sina's page has the top ten and the holder counts, not the float holders: say so rather than leave the section silently empty.
    const notice = source.endsWith('sina') ? 'top10_float_holders is empty: Eastmoney failed and Sina\'s shareholder page has no float holders; changes since the previous period are null' : undefined
    return answer(c, 'shareholder', { ok: true, source, data: { tables, data: rows }, ...(asOf ? { as_of: asOf } : {}), ...staleOf([r], notice) })
  })
}
