/**
 * Brokerage branches (营业部) that appear as buyers and sellers in block trades and on the
 * dragon-tiger board. `机构专用` is the exchange's name for an institution's seat.
 */
import { pickIndex } from './random'

const INSTITUTION_SEAT = '机构专用'

const BRANCHES = [
  '中信证券股份有限公司上海分公司',
  '中信证券股份有限公司北京总部证券营业部',
  '华泰证券股份有限公司深圳益田路荣超商务中心证券营业部',
  '国泰君安证券股份有限公司上海江苏路证券营业部',
  '中国国际金融股份有限公司上海分公司',
  '招商证券股份有限公司深圳蛇口工业七路证券营业部',
  '东方财富证券股份有限公司拉萨团结路第二证券营业部',
  '东方财富证券股份有限公司拉萨东环路第二证券营业部',
  '广发证券股份有限公司广州天河北路证券营业部',
  '银河证券股份有限公司北京中关村大街证券营业部',
  '海通证券股份有限公司上海建国西路证券营业部',
  '申万宏源证券有限公司上海闵行区东川路证券营业部',
  '国信证券股份有限公司深圳红岭中路证券营业部',
  '中泰证券股份有限公司济南经七路证券营业部',
  '光大证券股份有限公司宁波解放南路证券营业部',
  '财通证券股份有限公司杭州上塘路证券营业部',
  '华鑫证券有限责任公司上海分公司',
  '开源证券股份有限公司西安太华路证券营业部',
  '沪股通专用',
  '深股通专用',
] as const

/** A seat by hash: an institution seat about one time in four, else a branch. */
export function seatName(seed: number, a: number, b = 0, c = 0): string {
  const i = pickIndex(seed, BRANCHES.length + 6, a, b, c)
  return i < BRANCHES.length ? BRANCHES[i] : INSTITUTION_SEAT
}

/** A stable numeric code for a seat name (`0` for the institution seat, as Eastmoney prints it). */
export function seatCode(name: string): string {
  if (name === INSTITUTION_SEAT) return '0'
  const i = BRANCHES.indexOf(name as (typeof BRANCHES)[number])
  return String(10_000_000 + 7919 * (i + 1))
}

/** The seat's code in the board's older numbering (`OPERATEDEPT_CODE_OLD`, eight digits from 80; `0` for the institution seat). */
export function seatCodeOld(name: string): string {
  if (name === INSTITUTION_SEAT) return '0'
  const i = BRANCHES.indexOf(name as (typeof BRANCHES)[number])
  return String(80_000_000 + 4111 * (i + 1))
}
