import type { Bar } from '../../domain/bar'
import { beijing } from '../../domain/dates'
import { ChannelError, empty, unsupported } from '../errors'
import { fetchText } from '../http'
import { barsToFetch, clip } from '../span'
import type { ChannelContext, KlineRequest } from '../types'
import { isAShare, klineCodes, volumeInShares } from './codes'
import { parseFqkline, parseMkline } from './kline-parse'

const CHANNEL = 'tencent'

// All on proxy.finance.qq.com/ifzqgtimg: in 2026 web.ifzq.gtimg.cn answers 301 to
// web3.ifzq.gtimg.cn, which many networks cannot resolve or reach, and public projects report the
// proxy host serving the same K-lines (test/fixtures/tencent/SOURCE.md, "Hosts").
const BASE = 'https://proxy.finance.qq.com/ifzqgtimg/appstock/app'
const NEWFQKLINE = `${BASE}/newfqkline/get`
const HKFQKLINE = `${BASE}/hkfqkline/get`
const USFQKLINE = `${BASE}/usfqkline/get`
const MKLINE = `${BASE}/kline/mkline`

/** Minute bars in one A-share session (4 hours). */
const SESSION_MINUTES = 240

/**
 * K-lines from Tencent: qfq day/week/month (newfqkline for sh/sz/bj, hkfqkline, usfqkline) and raw
 * minute bars (mkline, sh/sz/bj only). Season and year are not native here: `unsupported`.
 */
export async function fetchKline(req: KlineRequest, ctx: ChannelContext): Promise<Bar[]> {
  const { instrument: inst, period } = req
  const codes = klineCodes(inst)
  if (codes.length === 0) throw unsupported(CHANNEL, `no Tencent K-lines for ${inst.code}`)
  let bars: Bar[]
  switch (period) {
    case 'season':
    case 'year':
      throw unsupported(CHANNEL, `${period} bars are not native to Tencent`)
    case 'day':
    case 'week':
    case 'month':
      bars = await fetchFq(req, period, codes, ctx)
      break
    default: {
      if (!isAShare(inst)) throw unsupported(CHANNEL, `no Tencent minute bars for ${inst.code}`)
      // mkline takes only a count: ask for enough to reach back to `end`.
      const n = barsToFetch(req, SESSION_MINUTES / Number(period.slice(1)), beijing(ctx.now?.() ?? Date.now()).date)
      const text = await fetchText(ctx, CHANNEL, `${MKLINE}?param=${codes[0]},${period},,${n}`)
      bars = parseMkline(text, codes[0], period, volumeInShares(inst) ? 'star' : 'ashare')
    }
  }
  const out = clip(bars, req)
  if (out.length === 0) throw empty(CHANNEL, `no ${period} bars for ${inst.code} in range`)
  return out
}

async function fetchFq(req: KlineRequest, period: 'day' | 'week' | 'month', codes: string[], ctx: ChannelContext): Promise<Bar[]> {
  const inst = req.instrument
  if (isAShare(inst)) {
    const param = [codes[0], period, req.start ?? '', req.end ?? '', req.count, 'qfq'].join(',')
    return parseFqkline(await fetchText(ctx, CHANNEL, `${NEWFQKLINE}?param=${param}`), codes[0], period, volumeInShares(inst) ? 'star' : 'ashare')
  }
  const base = inst.kind === 'hk' ? HKFQKLINE : USFQKLINE
  // US indexes are not adjusted: the fq slot stays empty.
  const fq = inst.kind === 'us-index' ? '' : 'qfq'
  // An unknown US ticker: try each listing venue in turn until one has bars.
  for (let k = 0; ; k++) {
    const code = codes[k]
    try {
      return parseFqkline(await fetchText(ctx, CHANNEL, `${base}?param=${code},${period},,,${req.count},${fq}`), code, period, 'plain')
    } catch (e) {
      if (!(e instanceof ChannelError && e.kind === 'empty') || k === codes.length - 1) throw e
    }
  }
}
