/**
 * Where each industry board of the model (catalog SECTORS) sits in the two classifications the F10
 * company survey names: Eastmoney's 2016 industries (`EM2016`, three levels, `一级-二级-三级`) and
 * the CSRC's (`INDUSTRYCSRC1`, sector and division, `门类-大类`). Real answers give paths, not board
 * names (test/fixtures/eastmoney/f10-survey-300124.json `机械设备-机器人-工业机器人` /
 * `制造业-电气机械和器材制造业`; f10-survey-600000.json `金融-银行-股份制与城商行` /
 * `金融业-货币金融服务`). A board maps to one path; the big state banks to their own third level.
 */
import type { EmuInstrument } from './types'

const MAKING = '制造业'
const ELECTRONICS = `${MAKING}-计算机、通信和其他电子设备制造业`
const ELECTRICAL = `${MAKING}-电气机械和器材制造业`
const NONFERROUS = `${MAKING}-有色金属冶炼和压延加工业`
const TRANSPORT = '交通运输、仓储和邮政业'

/** Board name → [EM2016 path, CSRC path]. */
const PATHS: Record<string, readonly [string, string]> = {
  酿酒行业: ['食品饮料-饮料-白酒', `${MAKING}-酒、饮料和精制茶制造业`],
  银行: ['金融-银行-股份制与城商行', '金融业-货币金融服务'],
  证券: ['金融-证券-证券', '金融业-资本市场服务'],
  保险: ['金融-保险-保险', '金融业-保险业'],
  半导体: ['电子设备-半导体-集成电路', ELECTRONICS],
  电子元件: ['电子设备-电子元件-被动元件', ELECTRONICS],
  通信设备: ['通信-通信设备-通信网络设备及器件', ELECTRONICS],
  煤炭行业: ['煤炭-煤炭开采-动力煤', '采矿业-煤炭开采和洗选业'],
  石油行业: ['石油石化-石油开采-石油开采', '采矿业-石油和天然气开采业'],
  有色金属: ['有色金属-工业金属-铜', NONFERROUS],
  能源金属: ['有色金属-能源金属-锂', NONFERROUS],
  钢铁行业: ['钢铁-普钢-普钢', `${MAKING}-黑色金属冶炼和压延加工业`],
  航天航空: ['国防军工-航空装备-航空装备', `${MAKING}-铁路、船舶、航空航天和其他运输设备制造业`],
  汽车零部件: ['汽车-汽车零部件-汽车零部件', `${MAKING}-汽车制造业`],
  化学制药: ['医药生物-化学制药-化学制剂', `${MAKING}-医药制造业`],
  医疗服务: ['医药生物-医疗服务-医疗服务', '卫生和社会工作-卫生'],
  房地产开发: ['房地产-房地产开发-住宅开发', '房地产业-房地产业'],
  家电行业: ['家用电器-白色家电-空调', ELECTRICAL],
  电网设备: ['电力设备-电网设备-输变电设备', ELECTRICAL],
  光伏设备: ['电力设备-光伏设备-光伏电池组件', ELECTRICAL],
  电池: ['电力设备-电池-锂电池', ELECTRICAL],
  电力行业: ['公用事业-电力-水电', '电力、热力、燃气及水生产和供应业-电力、热力生产和供应业'],
  航空机场: ['交通运输-航空机场-航空运输', `${TRANSPORT}-航空运输业`],
  物流行业: ['交通运输-物流-综合物流', `${TRANSPORT}-装卸搬运和运输代理业`],
  航运港口: ['交通运输-航运港口-航运', `${TRANSPORT}-水上运输业`],
  工程建设: ['建筑-工程建设-基础建设', '建筑业-土木工程建筑业'],
  水泥建材: ['建材-水泥-水泥', `${MAKING}-非金属矿物制品业`],
  食品饮料: ['食品饮料-食品-休闲食品', `${MAKING}-食品制造业`],
  商业百货: ['商贸零售-一般零售-百货', '批发和零售业-零售业'],
  旅游酒店: ['社会服务-旅游及景区-旅游综合', '住宿和餐饮业-住宿业'],
  软件开发: ['信息技术-软件开发-行业应用软件', '信息传输、软件和信息技术服务业-软件和信息技术服务业'],
}

/** The state-owned big banks, filed under their own third level. */
const STATE_BANKS = new Set(['sh601398', 'sh601939', 'sh601288', 'sh601988', 'sh601328', 'sh601658'])

/** The `EM2016` and `INDUSTRYCSRC1` paths of a stock on `board`; undefined for a board without one. */
export function industryPaths(inst: EmuInstrument, board: string): { em2016: string; csrc: string } | undefined {
  const p = PATHS[board]
  if (!p) return undefined
  const em2016 = STATE_BANKS.has(inst.code) ? '金融-银行-国有大型银行' : p[0]
  return { em2016, csrc: p[1] }
}

/** Every board with a path (the test checks that it is every board of the catalog). */
export const boardsWithPaths = (): readonly string[] => Object.keys(PATHS)
