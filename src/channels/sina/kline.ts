import type { Bar } from '../../domain/bar'
import { beijing } from '../../domain/dates'
import { empty, malformed, unsupported } from '../errors'
import { barsToFetch, clip } from '../span'
import type { ChannelContext, KlineRequest, NativePeriod } from '../types'
import { checkBars, num, optNum } from '../validate'
import { isAShare } from './codes'
import { applyFactors, fetchFactors, priceDecimals, type Factor } from './factors'
import { CHANNEL, sinaText } from './fetch'
import { jsonpRows } from './jsonp-rows'
import { fetchFuturesKline } from './futures-kline'
import { isObject } from '../json'

const KLINE = 'https://quotes.sina.cn/cn/api/jsonp_v2.php/=/CN_MarketDataService.getKLineData'

/** getKLineData serves at most this many bars a request. */
const MAX_DATALEN = 1023

/** `scale` per native period; 240 minutes is one A-share session, i.e. a day bar. */
const SCALES: Partial<Record<NativePeriod, number>> = { m1: 1, m5: 5, m15: 15, m30: 30, m60: 60, day: 240 }
const DAY_SCALE = 240

const DAY = /^\d{4}-\d{2}-\d{2}$/
const MINUTE = /^(\d{4}-\d{2}-\d{2} \d{2}:\d{2}):\d{2}$/


/**
 * Parses a getKLineData JSONP answer (`=([{"day":…,"open":"…",…}]);`) into raw bars, oldest
 * first: volume in shares, amount in CNY where the row has one (null otherwise), no turnover. Minute bars are dated `YYYY-MM-DD HH:MM`
 * (bar end). `=(null);` (unknown symbol) and `=([]);` are `empty`.
 */
export function parseKline(text: string, scale: number): Bar[] {
  const rows = jsonpRows(text, 'K-line')
  const bars = rows.map((r): Bar => {
    if (!isObject(r) || typeof r.day !== 'string') throw malformed(CHANNEL, `bad K-line row ${JSON.stringify(r)}`)
    const m = scale === DAY_SCALE ? (DAY.test(r.day) ? [r.day, r.day] : null) : MINUTE.exec(r.day)
    if (!m) throw malformed(CHANNEL, `bad K-line day ${JSON.stringify(r.day)} at scale ${scale}`)
    const date = m[1]
    const f = (k: string) => num(CHANNEL, r[k], `${k} at ${date}`)
    const volume = f('volume')
    // Rows before Sina began sending `amount` (2023-11-03) carry `"amount":"0.0000"` beside a real
    // volume: unknown, not zero (test/fixtures/sina/SOURCE.md). Day rows may carry no amount at all.
    const amount = optNum(CHANNEL, r.amount, `amount at ${date}`)
    return { date, open: f('open'), close: f('close'), high: f('high'), low: f('low'), volume, amount: amount === 0 && volume > 0 ? null : amount, turnover: null }
  })
  return checkBars(CHANNEL, bars)
}

/**
 * K-lines from Sina for sh/sz/bj: raw minute bars, and qfq day bars built from raw scale-240
 * bars and `qfq.js`; futures day bars from getDailyKLine (futures-kline.ts). Week and longer are not native here: `unsupported`.
 */
export async function fetchKline(req: KlineRequest, ctx: ChannelContext): Promise<Bar[]> {
  const { instrument: inst, period } = req
  if (inst.kind === 'future') return fetchFuturesKline(req, ctx)
  if (!isAShare(inst)) throw unsupported(CHANNEL, `no Sina K-lines for ${inst.code}`)
  const scale = SCALES[period]
  if (scale === undefined) throw unsupported(CHANNEL, `${period} bars are not native to Sina`)
  // Sina takes only "the last n bars": ask for enough to reach back to `end`.
  const n = barsToFetch(req, DAY_SCALE / scale, beijing(ctx.now?.() ?? Date.now()).date, MAX_DATALEN)
  const url = `${KLINE}?symbol=${inst.code}&scale=${scale}&ma=no&datalen=${n}`
  let bars: Bar[]
  if (scale === DAY_SCALE) {
    // Indexes are never adjusted: no qfq.js to fetch.
    const noFactors: Promise<Factor[]> = Promise.resolve([])
    const [text, factors] = await Promise.all([sinaText(ctx, url), inst.kind === 'index' ? noFactors : fetchFactors(inst.code, ctx)])
    bars = applyFactors(parseKline(text, scale), factors, priceDecimals(inst))
  } else {
    bars = parseKline(await sinaText(ctx, url), scale)
  }
  const out = clip(bars, req)
  if (out.length === 0) throw empty(CHANNEL, `no ${period} bars for ${inst.code} in range`)
  return out
}
