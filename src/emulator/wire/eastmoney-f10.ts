/**
 * Eastmoney F10 pages' JSON as the emulator answers them, host `emweb.securities.eastmoney.com`,
 * `?code=SH600519` (market letters + six digits):
 *  - `/PC_HSF10/BusinessAnalysis/PageAjax` (经营分析): `zyfw` (主营范围), `jyps` (经营评述) and
 *    `zygcfx` (主营构成分析): rows with SECUCODE, SECURITY_CODE, REPORT_DATE (`YYYY-MM-DD
 *    00:00:00`), MAINOP_TYPE ("1" by industry, "2" by product, "3" by region), ITEM_NAME,
 *    MAIN_BUSINESS_INCOME (CNY), MBI_RATIO (fraction), MAIN_BUSINESS_COST, MBC_RATIO,
 *    MAIN_BUSINESS_RPOFIT (sic), MBR_RATIO, GROSS_RPOFIT_RATIO (sic), RANK. Keys as akshare's
 *    `stock_zygc_em` renames them (akshare/stock_fundamental/stock_zygc.py). The 600519 capture
 *    (test/fixtures/eastmoney/f10-business-600519.json) lacks MBC_RATIO, MAIN_BUSINESS_RPOFIT and
 *    MBR_RATIO, but its authors simplified it from the real answer (SOURCE.md), so their absence
 *    there does not show the real rows lack them; nothing we parse reads them.
 *  - `/PC_HSF10/CompanySurvey/PageAjax` (公司概况): `jbzl` (基本资料: ORG_NAME, EM2016 and
 *    INDUSTRYCSRC1 as paths, ORG_PROFILE 公司简介, BUSINESS_SCOPE 经营范围, …) and `fxxg` (发行相关),
 *    each an array of one object (adata `get_company_info` reads `jbzl[0]` and `fxxg[0]`).
 * A code the emulator does not know: every array empty, as the live page answers a delisted code.
 */
import { companyProfileOf, compositionOf, type CompositionItem } from '../market/business'
import { industryPaths } from '../market/industry-paths'
import type { EmuInstrument, MarketModel } from '../market/types'
import { jsonResponse } from './respond'

export const F10_HOST = /^emweb\.securities\.eastmoney\.com$/
export const BUSINESS_PATH = '/PC_HSF10/BusinessAnalysis/PageAjax'
export const SURVEY_PATH = '/PC_HSF10/CompanySurvey/PageAjax'

/** `SH600519` → the stock; anything else → undefined. */
function stockOf(market: MarketModel, raw: string | null): EmuInstrument | undefined {
  const m = /^(SH|SZ|BJ)(\d{6})$/i.exec(raw ?? '')
  const inst = m ? market.byCode(m[1].toLowerCase() + m[2]) : undefined
  return inst?.kind === 'stock' ? inst : undefined
}

const secucode = (inst: EmuInstrument) => `${inst.code.slice(2)}.${inst.code.slice(0, 2).toUpperCase()}`
const r4 = (x: number) => Math.round(x * 1e4) / 1e4

function rows(inst: EmuInstrument, date: string, type: string, items: CompositionItem[]) {
  return items.map((it, i) => {
    const profit = Math.round((it.income - it.cost) * 100) / 100
    const total = items.reduce((s, x) => s + x.income - x.cost, 0)
    return {
      SECUCODE: secucode(inst),
      SECURITY_CODE: inst.code.slice(2),
      REPORT_DATE: `${date} 00:00:00`,
      MAINOP_TYPE: type,
      ITEM_NAME: it.name,
      MAIN_BUSINESS_INCOME: it.income,
      MBI_RATIO: it.ratio,
      MAIN_BUSINESS_COST: it.cost,
      MBC_RATIO: r4(it.cost / items.reduce((s, x) => s + x.cost, 0)),
      MAIN_BUSINESS_RPOFIT: profit,
      MBR_RATIO: total ? r4(profit / total) : null,
      GROSS_RPOFIT_RATIO: it.income ? r4(profit / it.income) : null,
      RANK: i + 1,
    }
  })
}

export function handleBusinessAnalysis(params: URLSearchParams, market: MarketModel, now: number): Response {
  const inst = stockOf(market, params.get('code'))
  const comp = inst ? compositionOf(market, inst, now) : null
  const survey = inst ? companyProfileOf(inst) : null
  if (!inst || !survey) return jsonResponse({ zyfw: [], jyps: [], zygcfx: [] })
  return jsonResponse({
    zyfw: [{ SECUCODE: secucode(inst), SECURITY_CODE: inst.code.slice(2), BUSINESS_SCOPE: survey.scope }],
    jyps: [],
    zygcfx: comp ? [...rows(inst, comp.reportDate, '1', comp.industries), ...rows(inst, comp.reportDate, '2', comp.products), ...rows(inst, comp.reportDate, '3', comp.regions)] : [],
  })
}

/** `SECURITY_TYPE`: `上交所主板A股` and `深交所创业板A股` are on real answers; the others follow their pattern. */
function securityType(inst: EmuInstrument): string {
  const s = inst.symbol
  if (inst.prefix === 'sh') return s.startsWith('688') ? '上交所科创板A股' : '上交所主板A股'
  if (inst.prefix === 'sz') return /^30[01]/.test(s) ? '深交所创业板A股' : '深交所主板A股'
  return '北交所A股'
}

const EXCHANGE: Record<string, string> = { sh: '上海证券交易所', sz: '深圳证券交易所', bj: '北京证券交易所' }

/**
 * `jbzl` and `fxxg` with a subset of the real answer's columns, in its order
 * (test/fixtures/eastmoney/f10-survey-300124.json, a whole answer: 40 and 19 columns). `EM2016`
 * and `INDUSTRYCSRC1` are paths (market/industry-paths.ts), `REG_CAPITAL` is in 10,000 CNY (the
 * share count at 1 CNY par / 10,000, as 300124's), `ORG_PROFILE` starts with four spaces as real
 * profiles do. Columns the model has nothing for (officers, addresses, the issue's terms) are left
 * out rather than invented.
 */
export function handleCompanySurvey(params: URLSearchParams, market: MarketModel): Response {
  const inst = stockOf(market, params.get('code'))
  const p = inst ? companyProfileOf(inst) : null
  if (!inst || !p) return jsonResponse({ jbzl: [], fxxg: [] })
  const paths = industryPaths(inst, p.industry)
  return jsonResponse({
    jbzl: [
      {
        SECUCODE: secucode(inst),
        SECURITY_CODE: inst.symbol,
        SECURITY_NAME_ABBR: inst.name,
        ORG_NAME: p.orgName,
        STR_CODEA: inst.symbol,
        STR_NAMEA: inst.name,
        SECURITY_TYPE: securityType(inst),
        EM2016: paths?.em2016 ?? null,
        TRADE_MARKET: EXCHANGE[inst.prefix],
        INDUSTRYCSRC1: paths?.csrc ?? null,
        REG_CAPITAL: inst.totalShares === null ? null : Math.round(inst.totalShares) / 10_000,
        ORG_PROFILE: `    ${p.profile}`,
        BUSINESS_SCOPE: p.scope,
      },
    ],
    fxxg: [{ SECUCODE: secucode(inst), SECURITY_CODE: inst.symbol, LISTING_DATE: `${inst.listDate} 00:00:00` }],
  })
}
