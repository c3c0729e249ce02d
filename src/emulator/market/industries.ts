/**
 * Which Eastmoney industry board (行业板块, catalog SECTORS) each A-share stock belongs to: one board
 * per stock, the well-known names where they are known, the rest spread by a hash of the code.
 * Also the board's number in Eastmoney's valuation reports (`BOARD_CODE`, `016…`; the BK number is
 * `ORIGINALCODE` in the industry report, `ORIG_BOARD_CODE` in the per-stock one). Pure: instrument
 * in, board out.
 */
import { SECTORS } from './catalog'
import { hashString } from './random'
import type { EmuInstrument, MarketModel } from './types'

/** Boards of the real names in the catalog, as Eastmoney files them. */
const KNOWN: Record<string, string> = {
  sh600519: '0477', sz000858: '0477', sz000001: '0475', sh600036: '0475', sh601398: '0475', sh601318: '0474',
  sz300750: '1033', sh688981: '1036', sz002594: '0481', sh600900: '0428', bj830799: '0737',
}

const BKS = Object.keys(SECTORS).sort()

/** The BK number (`0477`) of a stock's industry board; undefined for anything but an A-share stock. */
export function industryOf(inst: EmuInstrument): string | undefined {
  if (inst.kind !== 'stock') return undefined
  return KNOWN[inst.code] ?? BKS[hashString('industry:' + inst.code) % BKS.length]
}

/** Eastmoney's valuation-report number of a board (`016` plus three digits), stable per BK number. */
export const valuationBoardCode = (bk: string) => `016${String(BKS.indexOf(bk) + 1).padStart(3, '0')}`

/** The BK number behind a valuation-report number; undefined when no board has it. */
export const boardOfValuationCode = (code: string) => BKS.find((bk) => valuationBoardCode(bk) === code)

/** Every BK number, ascending. */
export const industryBoards = (): readonly string[] => BKS

const members = new WeakMap<MarketModel, Map<string, EmuInstrument[]>>()

/** The stocks of a board (whenever listed), in the market's order. */
export function boardMembers(market: MarketModel, bk: string): readonly EmuInstrument[] {
  let byBoard = members.get(market)
  if (!byBoard) {
    byBoard = new Map()
    for (const inst of market.instruments()) {
      const b = industryOf(inst)
      if (!b) continue
      const list = byBoard.get(b)
      if (list) list.push(inst)
      else byBoard.set(b, [inst])
    }
    members.set(market, byBoard)
  }
  return byBoard.get(bk) ?? []
}
