/**
 * Sina's distribution page of one A-share stock, the second source of /v1/dividend:
 * `GET https://vip.stock.finance.sina.com.cn/corp/go.php/vISSUE_ShareBonus/stockid/<6 digits>.phtml`
 * (gb2312 HTML; a real page is test/fixtures/sina/sharebonus-sz300670-2021.html). The `<title>`
 * names the stock (`大烨智能(300670)分红配股_…`); table `#sharebonus_1` lists the plans newest
 * first, one `<tr>` of nine cells each: announcement date, bonus shares, transferred shares and cash
 * (pre-tax, CNY) per 10 shares, progress (`实施` implemented, `预案` proposed, `不分配` no
 * distribution), ex-date, record date, bonus-share listing date (`--` for none) and a detail link.
 * A table without plans holds one `暂时没有数据！` cell. The page has no report period, no payment
 * date and no plan text: those are null. Rows `不分配` distribute nothing and are left out.
 */
import type { Instrument } from '../../domain/instrument'
import { isValidDate } from '../../domain/dates'
import { PLAN_STATUS, planDate, type DividendPlan } from '../eastmoney/dividend-plans'
import { malformed, unsupported } from '../errors'
import { byId, byTag, textOf } from '../html'
import type { ChannelContext } from '../types'
import { CHANNEL, sinaText } from './fetch'

export function sinaDividendUrl(inst: Instrument): string {
  if (inst.kind !== 'stock' || !['sh', 'sz', 'bj'].includes(inst.prefix)) throw unsupported(CHANNEL, `Sina's distribution page is for A-share stocks, not ${inst.code}`)
  return `https://vip.stock.finance.sina.com.cn/corp/go.php/vISSUE_ShareBonus/stockid/${inst.symbol}.phtml`
}

/** Sina's progress words beyond Eastmoney's ({@link PLAN_STATUS}). */
const SINA_STATUS: Record<string, DividendPlan['status']> = { 实施: 'implemented', 预案: 'proposed' }
/** The progress of a row that distributes nothing. */
const NONE = '不分配'

const CELLS = 9

function dateCell(text: string, what: string): string | null {
  if (text === '--' || text === '') return null
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text) || !isValidDate(text)) throw malformed(CHANNEL, `${what} is not a date: ${JSON.stringify(text)}`)
  return text
}

function per10(text: string, what: string): number {
  if (!/^\d+(\.\d+)?$/.test(text)) throw malformed(CHANNEL, `${what} is not a number: ${JSON.stringify(text)}`)
  return Number(text)
}

/** Per-10-share figures to per share, as Eastmoney's are read (8 decimals). */
const perShare = (x: number) => Math.round((x / 10) * 1e8) / 1e8

/**
 * The plans on one page of `inst`, newest first. A page of another stock, a missing table, a row
 * of the wrong length, unreadable numbers or dates, a record date not before the ex-date, or an
 * implemented plan without an ex-date are `malformed`.
 */
export function parseSinaDividends(html: string, inst: Instrument): DividendPlan[] {
  const title = /<title>([^<]*)<\/title>/i.exec(html)?.[1] ?? ''
  const code = /\((\d{6})\)/.exec(title)?.[1]
  if (code !== inst.symbol) throw malformed(CHANNEL, `distribution page titled ${JSON.stringify(title.slice(0, 40))} answers a query for ${inst.code}`)
  const table = byId(html, 'table', 'sharebonus_1')
  if (!table) throw malformed(CHANNEL, `distribution page of ${inst.code} has no table sharebonus_1`)
  const body = byTag(table.inner, 'tbody')[0]
  if (!body) throw malformed(CHANNEL, `table sharebonus_1 of ${inst.code} has no tbody`)
  const plans: DividendPlan[] = []
  for (const tr of byTag(body.inner, 'tr')) {
    const cells = byTag(tr.inner, 'td').map((td) => textOf(td.inner))
    if (cells.length === 1 && /暂时没有数据/.test(cells[0])) continue
    if (cells.length !== CELLS) throw malformed(CHANNEL, `a plan row of ${inst.code} has ${cells.length} cells, not ${CELLS}`)
    const [notice, bonus, transfer, cash, progress, ex, record] = cells
    const where = `${inst.code} plan of ${notice}`
    const noticeDate = dateCell(notice, `announcement date of ${inst.code}`)
    if (!noticeDate) throw malformed(CHANNEL, `a plan row of ${inst.code} has no announcement date`)
    const [b, t, c] = [per10(bonus, `bonus shares of ${where}`), per10(transfer, `transferred shares of ${where}`), per10(cash, `cash of ${where}`)]
    if (progress === NONE) continue
    const exDate = dateCell(ex, `ex-date of ${where}`)
    const recordDate = dateCell(record, `record date of ${where}`)
    const status = SINA_STATUS[progress] ?? PLAN_STATUS[progress] ?? null
    if (recordDate && exDate && recordDate >= exDate) throw malformed(CHANNEL, `record date ${recordDate} of ${where} is not before the ex-date ${exDate}`)
    if (status === 'implemented' && !exDate) throw malformed(CHANNEL, `implemented plan of ${where} has no ex-date`)
    plans.push({
      reportDate: null,
      planNoticeDate: null,
      noticeDate,
      cash: perShare(c),
      bonusShares: perShare(b),
      transferShares: perShare(t),
      bonusTransferShares: perShare(b + t),
      recordDate,
      exDate,
      payDate: null,
      status,
      statusText: progress,
      profile: null,
    })
  }
  return plans.sort((a, b) => (planDate(a) < planDate(b) ? 1 : planDate(a) > planDate(b) ? -1 : 0))
}

/** Every plan of one A-share stock on Sina's page, newest first; none is []. */
export async function fetchSinaDividends(ctx: ChannelContext, inst: Instrument): Promise<DividendPlan[]> {
  return parseSinaDividends(await sinaText(ctx, sinaDividendUrl(inst), 'gbk'), inst)
}
