/**
 * Dehydrating a broker report's summary: the few sentences that carry a claim or a number, by
 * fixed rules (no model, no randomness), so the same summary always gives the same points.
 *
 * 1. Split into sentences at 。！？；, their ASCII forms and line breaks.
 * 2. Strip section labels (`投资要点：`, `事件：`, `盈利预测与投资建议：`…) and list markers (`1、`, `（2）`)
 *    at the head of a sentence, so a marker's digit does not count as a number.
 * 3. Drop boilerplate: disclaimers, "read the disclosures", rating definitions, and the risk section
 *    (a sentence opening with `风险提示` and every sentence after it in the same paragraph).
 * 4. Keep sentences with a number or a claim word; score them (number 2, claim word 1, a rating or
 *    target price 1) and keep the best `max`, in their original order.
 * 5. Cut each point to at most {@link MAX_POINT_CHARS} characters, at a clause boundary when one is near.
 */

/** The longest point, in characters (code points). */
export const MAX_POINT_CHARS = 120
/** Points kept per summary unless told otherwise. */
const DEFAULT_MAX_POINTS = 5

const SENTENCE_END = /[。！？!?；;]+/
/** Section labels a broker puts before a sentence; several may stack (`投资要点：事件：`). */
const LABEL_WORDS = '核心观点|投资要点|主要观点|报告摘要|内容摘要|摘要|事件|事项|点评|评论|结论|投资建议|投资评级|盈利预测与投资建议|盈利预测及投资建议|盈利预测和投资评级|盈利预测与估值|财务预测与投资建议|估值与评级'
const LABEL = new RegExp(`^(?:${LABEL_WORDS})\\s*[：:]\\s*`)
/** A label standing alone as a sentence (`盈利预测和投资评级。`): a heading, not a point. */
const BARE_LABEL = new RegExp(`^(?:${LABEL_WORDS})$`)
/** Opens the risk section, which is a list of standard caveats, not a finding. */
const RISK_HEAD = /^(?:风险提示|风险因素|主要风险)/
/** Sentences that are boilerplate wherever they stand. */
const BOILERPLATE = /免责|声明|请务必阅读|请阅读|仅供参考|不构成.{0,6}建议|版权|分析师承诺|评级说明|评级标准|执业证书|资格证书|本报告|本公司具备|投资有风险|入市需谨慎/
const DIGIT = /[0-9０-９]/
const CLAIM = /预计|预测|预期|维持|上调|下调|给予|首次覆盖|目标价|评级|增长|增速|下滑|下降|提升|改善|受益|有望|看好|超预期|不及预期|领先|龙头|拐点|加速|放缓|复苏|回升|承压|推荐|买入|增持|中性|减持|卖出|突破|扩张|收缩|修复|景气/
const RATING_OR_TARGET = /目标价|评级|买入|增持|推荐|中性|减持|卖出/

/** Whitespace as summaries carry it: NBSP, ideographic spaces, runs of blanks. */
const squeeze = (s: string) => s.replace(/[\u00a0\u3000\t ]+/g, ' ').trim()

/** List markers (`1、`, `2.`, `（3）`, `四、`) and a closing quote left over from the previous sentence. */
const LEAD = /^(?:[”’」）)]+|\d{1,2}[、.．)）](?!\d)|[（(]\d{1,2}[)）]|[一二三四五六七八九十]{1,3}[、.．])\s*/

function stripLabels(s: string): string {
  let out = s
  for (let m = LABEL.exec(out) ?? LEAD.exec(out); m; m = LABEL.exec(out) ?? LEAD.exec(out)) out = out.slice(m[0].length)
  return out.trim()
}

/** Cuts `s` to at most `max` code points, preferring the last clause boundary in the second half. */
export function clip(s: string, max = MAX_POINT_CHARS): string {
  const chars = [...s]
  if (chars.length <= max) return s
  const head = chars.slice(0, max - 1)
  let cut = -1
  for (let k = head.length - 1; k >= Math.floor(max / 2); k--) {
    if (head[k] === '，' || head[k] === ',' || head[k] === '、' || head[k] === '：') {
      cut = k
      break
    }
  }
  return (cut > 0 ? head.slice(0, cut) : head).join('') + '…'
}

function score(s: string): number {
  return (DIGIT.test(s) ? 2 : 0) + (CLAIM.test(s) ? 1 : 0) + (RATING_OR_TARGET.test(s) ? 1 : 0)
}

/**
 * The key points of a report summary: at most `max` sentences that carry a claim or a number,
 * each at most {@link MAX_POINT_CHARS} characters, in the summary's order. Empty text, or text
 * that is only boilerplate, gives `[]`.
 */
export function keyPoints(summary: string, max = DEFAULT_MAX_POINTS): string[] {
  const candidates: Array<{ text: string; score: number; at: number }> = []
  const seen = new Set<string>()
  for (const paragraph of summary.split(/\r?\n+/)) {
    let inRisk = false
    for (const raw of paragraph.split(SENTENCE_END)) {
      const sentence = stripLabels(squeeze(raw))
      if (RISK_HEAD.test(sentence)) inRisk = true
      if (inRisk || sentence === '' || BARE_LABEL.test(sentence) || BOILERPLATE.test(sentence)) continue
      const s = score(sentence)
      if (s === 0 || seen.has(sentence)) continue
      seen.add(sentence)
      candidates.push({ text: sentence, score: s, at: candidates.length })
    }
  }
  return candidates
    .slice()
    .sort((a, b) => b.score - a.score || a.at - b.at)
    .slice(0, Math.max(0, max))
    .sort((a, b) => a.at - b.at)
    .map((c) => clip(c.text))
}
