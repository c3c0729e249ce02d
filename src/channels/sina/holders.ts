/**
 * Sina's main-shareholder page of one A-share stock, the second source of /v1/shareholder's
 * `top10_holders` and `holder_count`:
 * `GET https://vip.stock.finance.sina.com.cn/corp/go.php/vCI_StockHolder/stockid/<6 digits>/displaytype/30.phtml`
 * (gb2312 HTML; a real period block is test/fixtures/sina/stockholder-sh600815-2014-06-30.html).
 * Table `#Table1`'s `tbody` holds one block per report period, newest first: labelled rows
 * `截至日期` (with `<a name="YYYY-MM-DD">`), `公告日期`, `股东总数` (holders, then a trend link),
 * `平均持股数` (`13932股(按总股本计算)`: total shares per holder, whole shares), the header row
 * `编号 / 股东名称 / 持股数量(股) / 持股比例(%) / 股本性质`, then one row per holder. The links in
 * the rows carry the stock's six digits (`stockid=600815`, `code/600815`). Sina's page says nothing
 * of the change since the previous period nor of the holder's type (null), and has no float
 * holders (that section stays empty from Sina).
 */
import type { Instrument } from '../../domain/instrument'
import { isValidDate } from '../../domain/dates'
import { HOLDER_COUNT_PERIODS, type Holder, type HolderCountRow, type Shareholders } from '../eastmoney/shareholders'
import { malformed, unsupported } from '../errors'
import { byId, byTag, textOf } from '../html'
import type { ChannelContext } from '../types'
import { CHANNEL, sinaText } from './fetch'

export function sinaHoldersUrl(inst: Instrument): string {
  if (inst.kind !== 'stock' || !['sh', 'sz', 'bj'].includes(inst.prefix)) throw unsupported(CHANNEL, `Sina's shareholder page is for A-share stocks, not ${inst.code}`)
  return `https://vip.stock.finance.sina.com.cn/corp/go.php/vCI_StockHolder/stockid/${inst.symbol}/displaytype/30.phtml`
}

interface Period {
  end: string
  notice: string | null
  holders: number | null
  avg: number | null
  rows: Array<{ rank: number; name: string; shares: number; ratio: number; sharesType: string | null }>
}

const LABELS = ['截至日期', '截止日期', '公告日期', '股东说明', '股东总数', '平均持股数', '编号'] as const

/** A cell's leading whole number (`68838查看变化趋势`, `13932股(按总股本计算)`); null for `--` or nothing. */
function leading(text: string, what: string): number | null {
  if (text === '' || /^-+$/.test(text)) return null
  const m = /^(\d+(?:\.\d+)?)/.exec(text)
  if (!m) throw malformed(CHANNEL, `${what} is not a number: ${JSON.stringify(text.slice(0, 30))}`)
  return Number(m[1])
}

function periods(tbody: string, inst: Instrument): Period[] {
  const out: Period[] = []
  for (const tr of byTag(tbody, 'tr')) {
    const cells = byTag(tr.inner, 'td').map((td) => textOf(td.inner))
    // Blank rows separate the period blocks.
    if (cells.every((c) => c === '')) continue
    const label = LABELS.find((l) => cells[0] === l)
    if (label === '截至日期' || label === '截止日期') {
      const end = cells[1] ?? ''
      if (!/^\d{4}-\d{2}-\d{2}$/.test(end) || !isValidDate(end)) throw malformed(CHANNEL, `period end of ${inst.code} is not a date: ${JSON.stringify(end)}`)
      out.push({ end, notice: null, holders: null, avg: null, rows: [] })
      continue
    }
    const p = out.at(-1)
    if (!p) throw malformed(CHANNEL, `a row of ${inst.code}'s holder table comes before any period`)
    const where = `${inst.code} ${p.end}`
    if (label === '公告日期') {
      const d = cells[1] ?? ''
      p.notice = /^\d{4}-\d{2}-\d{2}$/.test(d) && isValidDate(d) ? d : null
    } else if (label === '股东总数') p.holders = leading(cells[1] ?? '', `holder count of ${where}`)
    else if (label === '平均持股数') p.avg = leading(cells[1] ?? '', `average holding of ${where}`)
    else if (label) continue
    else if (/^\d+$/.test(cells[0])) {
      if (cells.length !== 5) throw malformed(CHANNEL, `a holder row of ${where} has ${cells.length} cells, not 5`)
      const [rank, name, shares, ratio, type] = cells
      if (!name) throw malformed(CHANNEL, `holder ${rank} of ${where} has no name`)
      const n = leading(shares, `shares of holder ${rank} of ${where}`)
      const r = leading(ratio, `ratio of holder ${rank} of ${where}`)
      if (n === null || r === null) throw malformed(CHANNEL, `holder ${rank} of ${where} has no shares or ratio`)
      p.rows.push({ rank: Number(rank), name, shares: n, ratio: r, sharesType: type && !/^-+$/.test(type) ? type : null })
    } else if (!/暂时没有数据/.test(cells.join(''))) throw malformed(CHANNEL, `unknown row in ${where}: ${JSON.stringify(cells[0].slice(0, 20))}`)
  }
  return out
}

/** Checks one period: ranks 1, 2, 3 …, holdings not rising with rank, ratios at most 100 % in all, and the page adding up. */
function check(p: Period, inst: Instrument): void {
  const where = `${inst.code} ${p.end}`
  p.rows.forEach((h, k) => {
    if (h.rank !== k + 1) throw malformed(CHANNEL, `holder ranks of ${where} are not 1, 2, 3 …`)
    if (k > 0 && h.shares > p.rows[k - 1].shares) throw malformed(CHANNEL, `holder ${h.rank} of ${where} holds more than the one above`)
  })
  if (p.rows.reduce((s, h) => s + h.ratio, 0) > 100.5) throw malformed(CHANNEL, `holder ratios of ${where} add up past 100 %`)
  // Shares ÷ ratio is the total the average is taken over: holders × average must be that total.
  const big = p.rows[0]
  if (big && big.ratio >= 1 && p.holders && p.avg) {
    const total = (big.shares / big.ratio) * 100
    if (Math.abs(p.holders * p.avg - total) > total * 0.01) throw malformed(CHANNEL, `holders × average of ${where} (${p.holders} × ${p.avg}) is not the total shares ${Math.round(total)} the ratios imply`)
  }
}

/**
 * The shareholders on one page of `inst`: the newest period's top ten holders and up to
 * {@link HOLDER_COUNT_PERIODS} holder counts, newest first. A page of another stock, without
 * `#Table1`, with periods out of order or rows that do not add up is `malformed`.
 */
export function parseSinaHolders(html: string, inst: Instrument): Shareholders {
  const table = byId(html, 'table', 'Table1')
  if (!table) throw malformed(CHANNEL, `shareholder page of ${inst.code} has no table Table1`)
  const body = byTag(table.inner, 'tbody')[0]
  if (!body) throw malformed(CHANNEL, `table Table1 of ${inst.code} has no tbody`)
  const all = periods(body.inner, inst)
  if (all.length === 0) return { top: [], float: [], counts: [] }
  const codes = new Set([...table.inner.matchAll(/(?:stockid=|code\/)(\d{6})/g)].map((m) => m[1]))
  if (codes.size === 0 || [...codes].some((c) => c !== inst.symbol)) throw malformed(CHANNEL, `shareholder page of ${[...codes].join(', ') || 'no stock'} answers a query for ${inst.code}`)
  all.forEach((p, k) => {
    if (k > 0 && p.end >= all[k - 1].end) throw malformed(CHANNEL, `periods of ${inst.code} are not newest first`)
    check(p, inst)
  })
  const latest = all.find((p) => p.rows.length > 0)
  const top: Holder[] = (latest?.rows ?? []).map((h) => ({
    endDate: latest!.end, rank: h.rank, name: h.name, type: null, sharesType: h.sharesType, shares: h.shares, ratio: h.ratio,
    change: null, changePct: null, changeText: null, noticeDate: latest!.notice,
  }))
  const counts: HolderCountRow[] = all
    .filter((p) => p.holders !== null && p.holders > 0)
    .slice(0, HOLDER_COUNT_PERIODS)
    .map((p) => ({
      endDate: p.end, holders: p.holders!, avgShares: p.avg, change: null, changePct: null,
      avgMarketCap: null, totalMarketCap: null, totalShares: null, intervalChangePct: null, noticeDate: p.notice,
    }))
  return { top, float: [], counts }
}

/** An A-share stock's shareholders from Sina's page. */
export async function fetchSinaHolders(ctx: ChannelContext, inst: Instrument): Promise<Shareholders> {
  return parseSinaHolders(await sinaText(ctx, sinaHoldersUrl(inst), 'gbk'), inst)
}
