/**
 * Pinyin initials (拼音首字母) of the instrument names, as Eastmoney's suggest answers carry them
 * (`贵州茅台` → `GZMT`). A table we own, covering exactly the characters the emulator's names
 * use (names.ts, catalog.ts, data/markets.ts); pinyin.test checks the coverage, so a new name
 * with a new character fails the tests until the table grows. Readings are the
 * ones the names take: 行 as in 银行 (háng), 长 as in 长江 (cháng), 重 as in 重工 (zhòng).
 */
const BY_INITIAL: Record<string, string> = {
  A: '埃安岸澳艾阿',
  B: '伯保北半博备宝巴币板标比白百舶邦部镑哔',
  C: '产传储创场川成晨材池程船诚超车醇长',
  D: '东代兑动地多大导店度德电豆达迪道鼎',
  E: '尔鄂',
  F: '丰份伏发富峰房服福纺费飞孚',
  G: '光国工果根桂概歌港甘硅股谷贵赣钢高',
  H: '互化华合和哈宏恒杭汇沪海环红航花货鸿黄昊行',
  J: '交京件佳健冀军加吉嘉境家居建技据晋晶机江津甲疆精胶酒金锦际集',
  K: '克凯口可康开快控矿科空',
  L: '乐利力哩拉料旅来林流理疗离立粮络联螺辽郎里铝隆零鲁龙榈锂连',
  M: '媒密摩明棉民煤米美茅蒙闽马',
  N: '农奈宁泥纳能酿',
  O: '欧',
  P: '品平拼普片粕苹鹏',
  Q: '券启器旗气汽琼青',
  R: '人日润燃瑞融软',
  S: '上商实属所手撒数斯时森水深生盛石色苏设酸陕顺食',
  T: '体台团天泰炭特碳糖腾踏通铁铜',
  W: '万五伟务威微文物皖纹网蔚韦',
  X: '信兴厦夏学小希息想新星械橡消湘祥芯讯逊锡险香鑫续',
  Y: '业云亚亿元医原友岳易有永油洋液渝游源盈移粤育英药豫跃运远银阳雅音饮甬',
  Z: '中债制卓子州招指振智棕正浙照织装证转重',
}

const INITIAL = new Map<string, string>()
for (const [letter, chars] of Object.entries(BY_INITIAL)) for (const ch of chars) INITIAL.set(ch, letter)

/** True when the table knows the character's initial. */
export const hasInitial = (ch: string) => INITIAL.has(ch)

/**
 * The pinyin initials of a name: one capital per Chinese character, Latin letters and digits
 * upper-cased as they are (`沪深300ETF` → `HS300ETF`, `*ST华泰` → `STHT`), other marks dropped.
 * A character outside the table throws when `strict` (the tests); otherwise it is left out, so the
 * name is still found by code and text.
 */
export function pinyinInitials(name: string, strict = false): string {
  let out = ''
  for (const ch of name) {
    if (/[A-Za-z0-9]/.test(ch)) out += ch.toUpperCase()
    else if (/\p{Script=Han}/u.test(ch)) {
      const letter = INITIAL.get(ch)
      if (letter) out += letter
      else if (strict) throw new Error(`no pinyin initial for ${ch} (in ${name})`)
    }
  }
  return out
}
