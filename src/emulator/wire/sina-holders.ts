/**
 * Sina's main-shareholder page (`vip.stock.finance.sina.com.cn/corp/go.php/vCI_StockHolder/stockid/<6 digits>[/displaytype/30].phtml`)
 * as the emulator answers it: gb2312 HTML with table `#Table1`, one block per published period,
 * newest first, in the markup of the real block kept in test/fixtures/sina/stockholder-sh600815-2014-06-30.html
 * (labelled rows 截至日期, 公告日期, 股东总数, 平均持股数, the header row, then the top ten). The same
 * holders, counts and publication dates Eastmoney's datacenter prints (market/shareholders.ts):
 * the count as a whole number, the average holding as total shares per holder rounded to a share
 * (`股(按总股本计算)`), ratios to two decimals, the share class as Eastmoney's `SHARES_TYPE`. Five
 * periods by default, thirty with `displaytype/30` **(ours: the real default is not captured)**.
 */
import { beijing } from '../../domain/dates'
import { holderCount, holderNoticeDate, holderPeriods, topHolders } from '../market/shareholders'
import type { EmuInstrument, MarketModel } from '../market/types'
import { aShareStockOfSymbol } from './codes'
import { gbkResponse } from './respond'

export const SINA_HOLDERS_PATH = /^\/corp\/go\.php\/vCI_StockHolder\/stockid\/(\d{6})(?:\/displaytype\/(\d+))?\.phtml$/
const CONTENT_TYPE = 'text/html; charset=gb2312'


const label = (text: string, value: string, anchor = '') =>
  `            <tr>\n                <td${anchor ? ' width="15%"' : ''}>${anchor}<div align="center"><strong>${text}</strong></div></td>\n                <td colspan="4">${value}</td>\n            </tr>\n`

const HEADER =
  '            <tr>\n                <td><div align="center"><strong>编号</strong></div></td>\n' +
  '                <td width="40%"><div align="center"><strong>股东名称</strong></div></td>\n' +
  '                <td width="15%"><div align="center"><strong>持股数量(股)</strong></div></td>\n' +
  '                <td width="15%"><div align="center"><strong>持股比例(%)</strong></div></td>\n' +
  '                <td width="15%"><div align="center"><strong>股本性质</strong></div></td>\n            </tr>\n'

function block(market: MarketModel, inst: EmuInstrument, end: string, now: number): string {
  const s = inst.symbol
  const c = holderCount(market, inst, end, now)
  const restricted = (inst.floatShares ?? 0) < (inst.totalShares ?? 0)
  const amount = (type: string) => `/corp/go.php/vCI_StockHolderAmount/code/${s}/type/${type}.phtml`
  const rows = topHolders(inst, end).map((h) => {
    const id = String(80_000_000 + (h.name.length * 7919 + h.rank * 104_729) % 9_999_999)
    return (
      '                        <tr >\n' +
      `              <td><div align="center">${h.rank}</div></td>\n` +
      `              <td><div align="center"><a href="/corp/view/vCI_HoldStockState.php?stockid=${s}&stockholderid=${id}" target="_blank">${h.name}</a></div></td>\n` +
      `              <td><div align="center"><a href="/corp/view/vCI_StockHolderAmount.php?stockid=${s}&type=holdstocknum&code=${id}" target="_blank">${h.shares}</a>&nbsp;</div></td>\n` +
      `              <td><div align="center"><a href="/corp/view/vCI_StockHolderAmount.php?stockid=${s}&type=holdstockproportion&code=${id}" target="_blank">${h.ratio.toFixed(2)}</a>&nbsp;</div></td>\n` +
      `              <td><div align="center">${h.rank === 1 && restricted ? '流通A股,限售流通A股' : '流通A股'}</div></td>\n` +
      '              </tr>\n'
    )
  })
  return (
    label('截至日期', end, `<a name="${end}"></a>`) +
    label('公告日期', holderNoticeDate(end)) +
    label('股东总数', c ? `${c.holders}<a href="${amount('amount')}" target="_blank">查看变化趋势</a>` : '--') +
    label('平均持股数', c && inst.totalShares ? `\n                    ${Math.round(inst.totalShares / c.holders)}股(按总股本计算)                    <a href="${amount('average')}" target="_blank">查看变化趋势</a>\n                ` : '--') +
    HEADER +
    rows.join('')
  )
}

function page(symbol: string, name: string, blocks: string[]): string {
  return `<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
<html xmlns="http://www.w3.org/1999/xhtml">
<head>
<meta http-equiv="Content-Type" content="text/html; charset=gb2312" />
<title>${name}(${symbol})主要股东_新浪财经_新浪网</title>
</head>
<body>
        <table width="100%" id="Table1">
<tbody>
${blocks.join('            <tr><td colspan="5"></td></tr>\n')}</tbody>
</table>
</body>
</html>
`
}

/** Answers one main-shareholder page; `displaytype` is how many periods it shows (default five). */
export function handleSinaHolders(symbol: string, displaytype: string | undefined, market: MarketModel, now: number): Response {
  const inst = aShareStockOfSymbol(market, symbol)
  if (!inst) return gbkResponse(page(symbol, '', []), CONTENT_TYPE)
  const ends = holderPeriods(inst, beijing(now).date).slice(0, displaytype ? Number(displaytype) : 5)
  return gbkResponse(page(symbol, inst.name, ends.map((end) => block(market, inst, end, now))), CONTENT_TYPE)
}

/** The `empty` fault's page: the table without periods. */
export const sinaHoldersEmpty = (symbol: string, market: MarketModel) => gbkResponse(page(symbol, aShareStockOfSymbol(market, symbol)?.name ?? '', []), CONTENT_TYPE)
