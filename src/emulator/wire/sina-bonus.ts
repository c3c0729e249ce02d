/**
 * Sina's distribution page (`vip.stock.finance.sina.com.cn/corp/go.php/vISSUE_ShareBonus/stockid/<6 digits>.phtml`)
 * as the emulator answers it: gb2312 HTML in the shape of the real page kept in
 * test/fixtures/sina/sharebonus-sz300670-2021.html (title naming the stock, table `#sharebonus_1`
 * of nine cells a plan, newest first, table `#sharebonus_2` for rights issues). One row per
 * corporate action of the model announced by the clock's Beijing date, the same actions and dates
 * Eastmoney's `RPT_SHAREBONUS_DET` prints (market/dividend-plans.ts): announcement date the stage's
 * latest notice, per-10-share bonus shares (the model does not tell bonus from transferred shares:
 * all are 送股), 转增 0, cash pre-tax; progress `实施` once the implementation is announced (ex- and
 * record dates then set), else `预案` (the only other word the capture shows for a live plan);
 * the bonus shares list on the ex-date. A code that is no A-share stock gets the page with the
 * no-data row, as the table prints it for a stock without plans.
 */
import { beijing } from '../../domain/dates'
import { planDates, planStage } from '../market/dividend-plans'
import type { EmuInstrument, MarketModel } from '../market/types'
import { round } from './format'
import { aShareStockOfSymbol } from './codes'
import { gbkResponse } from './respond'

export const SINA_BONUS_PATH = /^\/corp\/go\.php\/vISSUE_ShareBonus\/stockid\/(\d{6})\.phtml$/
const CONTENT_TYPE = 'text/html; charset=gb2312'


const td = (text: string) => `\t\t\t\t\t\t\t<td>${text}</td>\n`
/** A per-10 figure as Sina prints it: no trailing zeros (`0`, `0.6`, `276.73`). */
const figure = (x: number) => String(round(x, 4))

function rows(market: MarketModel, inst: EmuInstrument, now: number): string[] {
  const today = beijing(now).date
  const out: Array<[string, string]> = []
  for (const a of market.actions(inst)) {
    const d = planDates(a)
    const stage = planStage(d, today)
    if (!stage) continue
    const set = stage === 'implemented'
    const notice = { proposed: d.planNotice, approved: d.approval, implemented: d.implementationNotice }[stage]
    const link = `<a target="_blank" href="/corp/view/vISSUE_ShareBonusDetail.php?stockid=${inst.symbol}&type=1&end_date=${notice}">查看</a>`
    const cells = [notice, figure(a.bonus * 10), '0', figure(a.cash * 10)].map(td).join('') + '\t\t\t\t\t\t\t\t\t\t\t\t\t\t\n' +
      [set ? '实施' : '预案', set ? d.ex : '--', set ? d.record : '--', set && a.bonus > 0 ? d.ex : '--', link].map(td).join('')
    out.push([notice, `\t\t\t\t\t\t\t\t\t\t\t<tr>\n${cells}\t\t\t\t\t\t</tr>\n`])
  }
  return out.sort((x, y) => (x[0] < y[0] ? 1 : x[0] > y[0] ? -1 : 0)).map(([, html]) => html)
}

const NO_DATA = (colspan: number) => `    \t\t<tr><td colspan='${colspan}' style='text-align:center'>暂时没有数据！</td></tr>\t    </tbody>\n`

function page(symbol: string, name: string, fullcode: string, plans: string[]): string {
  return `<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
<html xmlns="http://www.w3.org/1999/xhtml">
<head>
<meta http-equiv="Content-Type" content="text/html; charset=gb2312" />
<title>${name}(${symbol})分红配股_新浪财经_新浪网</title>
<script language="javascript" type="text/javascript">
<!--//--><![CDATA[//><!--
var fullcode="${fullcode}";
//--><!]]>
</script>
</head>
<body>
<div id="con02-0" class="tagmain">
\t<!--分红 begin-->
    <table id="sharebonus_1">
    \t<thead>
    \t\t<tr><th align='center' colspan='9'>分红</td></tr>
    \t\t<tr>
    \t\t\t<th rowspan='2' align='center'><strong>公告日期</strong></td>
    \t\t\t<th colspan='3' align='center'><strong>分红方案(每10股)</strong></td>
    \t\t\t<th rowspan='2' align='center'><strong>进度</strong></td>
\t    \t\t<th rowspan='2' align='center'><strong>除权除息日</strong></td>
\t    \t\t<th rowspan='2' align='center'><strong>股权登记日</strong></td>
\t    \t\t<th rowspan='2' align='center'><strong>红股上市日</strong></td>
\t    \t\t<th rowspan='2' align='center'><strong>查看详细</strong></td>
\t    \t</tr>
\t    \t<tr>
\t    \t\t<th align='center'><strong>送股(股)</strong></td>
    \t\t\t<th align='center'><strong>转增(股)</strong></td>
    \t\t\t<th align='center'><strong>派息(税前)(元)</strong></td>
\t    \t</tr>
    \t</thead>
    \t<tbody>
${plans.length ? plans.join('') + '\t\t\t\t\t\t    </tbody>\n' : NO_DATA(9)}\t</table>
\t<!--分红 end-->
\t<table id="sharebonus_2">
    \t<thead>
    \t\t<tr><th align='center' colspan='11'>配股</td></tr>
    \t</thead>
    \t<tbody>
${NO_DATA(11)}\t</table>
</div>
</body>
</html>
`
}

/** Answers one distribution page. */
export function handleSinaBonus(symbol: string, market: MarketModel, now: number): Response {
  const inst = aShareStockOfSymbol(market, symbol)
  if (!inst) return gbkResponse(page(symbol, '', '', []), CONTENT_TYPE)
  return gbkResponse(page(symbol, inst.name, inst.code, rows(market, inst, now)), CONTENT_TYPE)
}

/** The `empty` fault's page: the stock's page with the no-data row. */
export function sinaBonusEmpty(symbol: string, market: MarketModel): Response {
  const inst = aShareStockOfSymbol(market, symbol)
  return gbkResponse(page(symbol, inst?.name ?? '', inst?.code ?? '', []), CONTENT_TYPE)
}
