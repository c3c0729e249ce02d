import type { Bar } from '../../domain/bar'
import type { Instrument } from '../../domain/instrument'
import { malformed } from '../errors'
import type { ChannelContext } from '../types'
import { checkBars, num } from '../validate'
import { CHANNEL, isNotFound, sinaText } from './fetch'
import { isObject } from '../json'

/** One forward-adjustment factor: applies from `date` until the next newer entry. */
export interface Factor {
  date: string
  factor: number
}

const DAY = /^\d{4}-\d{2}-\d{2}$/


/**
 * Parses `qfq.js` (`var sh600519qfq={"total":N,"data":[{"d":"2025-06-20","f":"1.000000"},…]}`),
 * with quoted or bare keys. Returns the entries newest first, as served.
 */
export function parseFactors(text: string): Factor[] {
  // Sina appends a `/* … */` comment of varying text after the object (several public clients
  // strip it: test/fixtures/sina/SOURCE.md); a brace inside it must not end the object.
  const code = text.replace(/\/\*[\s\S]*?(\*\/|$)/g, '')
  const body = code.slice(code.indexOf('{'), code.lastIndexOf('}') + 1)
  // Bare keys (`{total:1,data:[{d:…,f:…}]}`) become JSON keys; the values are dates and numbers.
  const json = body.replace(/([{,]\s*)([A-Za-z_$][\w$]*)\s*:/g, '$1"$2":')
  let doc: unknown
  try {
    doc = JSON.parse(json)
  } catch {
    throw malformed(CHANNEL, 'qfq.js is not an object literal')
  }
  if (!isObject(doc) || !Array.isArray(doc.data)) throw malformed(CHANNEL, 'qfq.js has no data array')
  const out: Factor[] = []
  for (const e of doc.data) {
    if (!isObject(e) || typeof e.d !== 'string' || !DAY.test(e.d)) throw malformed(CHANNEL, `bad qfq.js entry ${JSON.stringify(e)}`)
    const factor = num(CHANNEL, e.f, `qfq factor at ${e.d}`)
    if (factor <= 0) throw malformed(CHANNEL, `qfq factor ${factor} at ${e.d}`)
    if (out.length > 0 && e.d >= out[out.length - 1].date) throw malformed(CHANNEL, `qfq.js dates not newest first at ${e.d}`)
    out.push({ date: e.d, factor })
  }
  return out
}

/** The instrument's qfq factors; a code with no corporate actions has no file (404): none. */
export async function fetchFactors(code: string, ctx: ChannelContext): Promise<Factor[]> {
  try {
    return parseFactors(await sinaText(ctx, `https://finance.sina.com.cn/realstock/company/${code}/qfq.js`))
  } catch (e) {
    if (isNotFound(e)) return []
    throw e
  }
}

/** Price decimals Sina's qfq prices are rounded to: 3 for ETFs and bonds, else 2. */
export const priceDecimals = (i: Instrument): number => (i.kind === 'etf' || i.kind === 'bond' ? 3 : 2)

/**
 * Forward-adjusts raw day bars (oldest first): each price ÷ the factor in force on the bar's date,
 * rounded to `decimals`. Volume and amount stay as traded. No factors: factor 1 throughout.
 */
export function applyFactors(bars: Bar[], factors: Factor[], decimals: number): Bar[] {
  const p = 10 ** decimals
  const oldestFirst = [...factors].reverse()
  let k = -1
  const adjusted = bars.map((b) => {
    while (k + 1 < oldestFirst.length && oldestFirst[k + 1].date <= b.date) k++
    if (oldestFirst.length > 0 && k < 0) throw malformed(CHANNEL, `no qfq factor covers ${b.date}`)
    const f = k < 0 ? 1 : oldestFirst[k].factor
    const adj = (x: number) => Math.round((x / f) * p) / p
    return { ...b, open: adj(b.open), close: adj(b.close), high: adj(b.high), low: adj(b.low) }
  })
  return checkBars(CHANNEL, adjusted)
}
