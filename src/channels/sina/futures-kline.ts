/**
 * Sina futures daily bars: `stock2.finance.sina.com.cn/futures/api/jsonp.php/<var>=/
 * InnerFuturesNewService.getDailyKLine?symbol=RB0` (akshare futures_zh_daily_sina and
 * futures_main_sina). The symbol is the `hq.sinajs.cn` code without `nf_`: a contract (`RB2501`,
 * CZCE `SR501`) or a main continuous contract (`RB0`). The answer is the whole history, oldest
 * first, every value a string: `{"d":"2026-09-01","o":"3197.000","h":…,"l":…,"c":…,"v":"710896",
 * "p":"1290303.000","s":"3175.000"}`, p = open interest, s = settlement (keys as in the captures
 * other projects test against, e.g. the column list `date, open, high, low, close, vol, p, s`).
 */
import type { Bar } from '../../domain/bar'
import { empty, malformed, unsupported } from '../errors'
import { clip } from '../span'
import type { ChannelContext, KlineRequest } from '../types'
import { checkBars, num } from '../validate'
import { quoteCode } from './codes'
import { CHANNEL, sinaText } from './fetch'
import { jsonpRows } from './jsonp-rows'
import { isObject } from '../json'

const DAILY = 'https://stock2.finance.sina.com.cn/futures/api/jsonp.php/var%20_=/InnerFuturesNewService.getDailyKLine'
const DAY = /^\d{4}-\d{2}-\d{2}$/


/**
 * Parses a getDailyKLine answer (`var _=([{…}]);`) into bars, oldest first: volume in contracts,
 * no amount (Sina does not send it), no turnover. `(null)` and `([])` are `empty`.
 */
export function parseFuturesDaily(text: string): Bar[] {
  const rows = jsonpRows(text, 'futures K-line')
  const bars = rows.map((r): Bar => {
    if (!isObject(r) || typeof r.d !== 'string' || !DAY.test(r.d)) throw malformed(CHANNEL, `bad futures K-line row ${JSON.stringify(r)}`)
    const f = (k: string) => num(CHANNEL, r[k], `${k} at ${r.d}`)
    return { date: r.d, open: f('o'), close: f('c'), high: f('h'), low: f('l'), volume: f('v'), amount: null, turnover: null }
  })
  return checkBars(CHANNEL, bars)
}

/** Day bars of a futures contract or main continuous contract; other periods are not native here. */
export async function fetchFuturesKline(req: KlineRequest, ctx: ChannelContext): Promise<Bar[]> {
  const inst = req.instrument
  const code = quoteCode(inst)
  if (req.period !== 'day' || !code) throw unsupported(CHANNEL, `no Sina ${req.period} futures bars for ${inst.code}`)
  const bars = parseFuturesDaily(await sinaText(ctx, `${DAILY}?symbol=${encodeURIComponent(code.slice('nf_'.length))}`))
  const out = clip(bars, req)
  if (out.length === 0) throw empty(CHANNEL, `no day bars for ${inst.code} in range`)
  return out
}
