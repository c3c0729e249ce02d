/**
 * Synthetic Chinese company short names (证券简称): a brand or region word plus an industry word,
 * 2–4 characters, unique across the universe. Deterministic: the same code always gets the same
 * name as long as the set of codes named before it is the same.
 */
import { hash, SALT } from './random'

/** Characters that read as auspicious brand syllables (华, 泰, 鑫 …). */
const BRAND_A = '华泰达丰宏盛恒瑞金嘉天润中东海新博通汇德鼎兴亿安星康凯龙正光阳科振宝旗远国联启佳卓银红长高精盈富百云昊鑫永鸿利隆源祥诚信立万福顺和合美乐明晨晶创力'
const BRAND_B = '华泰达丰宏盛恒瑞金嘉天润通汇德鼎兴亿安星康凯龙光阳科宝远联启佳卓银源祥诚信立福顺和合美明晨晶创力威雅锦邦腾跃峰川岳林森业'
/** One-character place names (provinces and cities) used as prefixes. */
const REGION = '浙苏川粤闽湘鲁豫京沪津渝皖赣鄂晋冀辽吉陕甘青宁桂琼云贵蒙疆杭深厦甬锡宁'
/** Industry words. */
const INDUSTRY = [
  '科技', '电子', '医药', '股份', '能源', '材料', '证券', '食品', '汽车', '智能', '电气', '化工',
  '机械', '环保', '生物', '信息', '软件', '传媒', '建设', '地产', '物流', '药业', '精密', '光电',
  '新材', '农业', '纺织', '电力', '通信', '控股', '集团', '实业', '重工', '装备', '制药', '网络',
  '数据', '文化', '旅游', '家居', '电器', '钢铁', '矿业', '航空', '船舶', '水务', '燃气', '环境',
  '建材', '动力', '照明', '健康', '医疗', '微电', '半导', '新能', '储能', '锂业', '铝业', '铜业',
]

/** One candidate name for (seed, attempt). */
function candidate(seed: number, attempt: number): string {
  const h = hash(seed, SALT.name, attempt)
  const h2 = hash(seed, SALT.name, attempt, 1)
  const brand = BRAND_A[h % BRAND_A.length] + BRAND_B[(h >>> 8) % BRAND_B.length]
  const industry = INDUSTRY[(h2 >>> 4) % INDUSTRY.length]
  const style = h2 % 20
  if (style < 12) return brand + industry
  if (style < 16) return REGION[(h >>> 16) % REGION.length] + industry
  if (style < 18) return REGION[(h >>> 16) % REGION.length] + brand
  return brand
}

/**
 * A name not in `taken` (which it is then added to). Real names must be added to `taken`
 * before any synthetic one is drawn, so no synthetic name shadows them.
 */
export function uniqueName(seed: number, taken: Set<string>): string {
  for (let attempt = 0; ; attempt++) {
    const name = candidate(seed, attempt)
    // A doubled first character (华华…) reads wrong, and would also make odd bond names.
    if (!taken.has(name) && name[0] !== name[1]) {
      taken.add(name)
      return name
    }
  }
}

/**
 * Reserves a real name in `taken` in every form a synthetic name could pass for: as written, without
 * its ST mark, without a share-class letter or STAR suffix (`万科Ａ` → `万科`, `九号公司-WD` →
 * `九号公司`), and as its first two characters (a two-character synthetic brand would read as the
 * real company's short form: `恒瑞` for 恒瑞医药).
 */
export function reserve(taken: Set<string>, name: string): void {
  const base = name.replace(/^S?\*?ST/, '')
  const bare = base.replace(/(-[A-Z]+|[A-Z\uff21-\uff3a])$/, '')
  taken.add(name).add(base).add(bare)
  const chars = [...bare]
  if (chars.length > 2) taken.add(chars[0] + chars[1])
}

/** ST marks: `*ST` (delisting risk) and `ST` (other special treatment). */
export function stName(name: string, star: boolean): string {
  return (star ? '*ST' : 'ST') + name
}

/** A convertible bond's short name: the issuer's first two characters plus 转债. */
export function bondName(issuer: string): string {
  return issuer.replace(/^\*?ST/, '').slice(0, 2) + '转债'
}
