/**
 * The instrument universe: 5,572 A-share stocks on realistic code ranges per board (a code of a
 * real stock carries its real name, real-names.ts; the others a synthetic one), the main
 * indexes, ETFs, convertible bonds, industry sectors, HK and US names, futures contracts and forex
 * pairs. Built once, on first use (about 50 ms), never at module load.
 */
import { FOREX_PAIRS, FUTURES_EXCHANGES, FUTURES_PRODUCTS, US_EXCHANGES, US_INDEXES, US_LISTINGS } from '../../data/markets'
import { addDays, dayNumber, fromDayNumber } from '../../domain/dates'
import { parseSymbol } from '../../domain/symbols'
import { monthIndex, sessionDayOnOrAfter, sessionDayOnOrBefore } from './calendars'
import { ETFS, FOREX_LEVELS, FUTURES_LEVELS, HK_STOCKS, INDEXES, REAL_STOCKS, SECTORS, US_INDEX_LEVELS, US_STOCKS } from './catalog'
import { bondName, reserve, stName, uniqueName } from './names'
import { realNames } from './real-names'
import { baseProfile, type Profile } from './profiles'
import { bnorm, hash, hashString, SALT, uniform } from './random'
import type { EmuInstrument } from './types'

/** The number of A-share stocks (kline-full and market-kline cover 5572 stocks). */
export const STOCK_COUNT = 5572

/** A listing-date segment: positions in the range map linearly onto [from, to]; `share` of them. */
type Segment = [from: string, to: string, share: number]

interface CodeRange {
  prefix: 'sh' | 'sz' | 'bj'
  from: number
  to: number
  count: number
  dates: Segment[]
  /** Share of the range listed on its first date (BJ: the exchange's opening day). */
  opening?: number
}

const BJ_DATES: Segment[] = [['2021-11-15', '2023-12-29', 1]]

/** Code ranges and counts per board; listing dates grow with the code, as they do in reality. */
const RANGES: CodeRange[] = [
  { prefix: 'sh', from: 600000, to: 600999, count: 830, dates: [['1994-01-03', '2012-12-31', 1]] },
  { prefix: 'sh', from: 601000, to: 601999, count: 230, dates: [['2006-06-01', '2016-06-30', 0.94], ['2016-09-01', '2022-12-30', 0.06]] },
  { prefix: 'sh', from: 603000, to: 603999, count: 550, dates: [['2011-01-04', '2016-07-29', 0.92], ['2016-08-15', '2023-12-29', 0.08]] },
  { prefix: 'sh', from: 605000, to: 605599, count: 110, dates: [['2020-01-06', '2023-12-29', 1]] },
  { prefix: 'sh', from: 688001, to: 688999, count: 590, dates: [['2019-07-22', '2026-10-30', 1]] },
  { prefix: 'sz', from: 1, to: 999, count: 460, dates: [['1991-01-02', '2008-12-31', 1]] },
  { prefix: 'sz', from: 1201, to: 1399, count: 90, dates: [['2021-01-04', '2026-10-30', 1]] },
  { prefix: 'sz', from: 2001, to: 2999, count: 940, dates: [['2004-06-25', '2016-07-29', 0.95], ['2016-08-15', '2021-12-31', 0.05]] },
  { prefix: 'sz', from: 3001, to: 3043, count: 40, dates: [['2020-09-01', '2021-06-30', 1]] },
  { prefix: 'sz', from: 300001, to: 300999, count: 980, dates: [['2009-10-30', '2016-07-29', 0.95], ['2016-08-15', '2020-08-21', 0.05]] },
  { prefix: 'sz', from: 301001, to: 301600, count: 470, dates: [['2020-08-24', '2026-10-30', 1]] },
  { prefix: 'bj', from: 430017, to: 430799, count: 20, dates: BJ_DATES, opening: 0.3 },
  { prefix: 'bj', from: 830001, to: 839999, count: 150, dates: BJ_DATES, opening: 0.3 },
  { prefix: 'bj', from: 870001, to: 873999, count: 70, dates: BJ_DATES, opening: 0.3 },
  { prefix: 'bj', from: 920000, to: 920199, count: 42, dates: [['2024-01-02', '2026-10-30', 1]] },
]

/** Median price (2016 walk level) and monthly volatility per board. */
const BOARD_PARAMS = {
  'sh-main': { price: 11, sigma: 0.085, limitProb: 0.01, turnover: 1 },
  'sz-main': { price: 11, sigma: 0.09, limitProb: 0.01, turnover: 1.1 },
  star: { price: 30, sigma: 0.12, limitProb: 0.005, turnover: 1.3 },
  chinext: { price: 22, sigma: 0.115, limitProb: 0.006, turnover: 1.6 },
  bj: { price: 12, sigma: 0.13, limitProb: 0.003, turnover: 1.2 },
} as const

export interface Universe {
  list: EmuInstrument[]
  byCode: Map<string, EmuInstrument>
  profiles: Map<string, Profile>
}

let built: Universe | undefined

/** The universe, built on first call. */
export function universe(): Universe {
  return (built ??= build())
}

const cacheKeys = new WeakMap<EmuInstrument, string>()
let otherInstruments = 0

/**
 * The key of an instrument in the model's caches: its code for the universe's own instruments, and
 * a key of its own for any other object (the wire tests' small market reuses real codes with other
 * listing dates, and must neither read nor fill the universe's entries).
 */
export function cacheKeyOf(inst: EmuInstrument): string {
  let key = cacheKeys.get(inst)
  if (key === undefined) {
    key = universe().byCode.get(inst.code) === inst ? inst.code : `${inst.code}#${++otherInstruments}`
    cacheKeys.set(inst, key)
  }
  return key
}

/** The hidden parameters of an instrument of the universe. */
export function profileOf(inst: EmuInstrument): Profile {
  const p = universe().profiles.get(inst.code)
  if (!p) throw new Error(`not an emulator instrument: ${inst.code}`)
  return p
}

const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x))
const six = (n: number) => String(n).padStart(6, '0')

/** Board of a stock code in RANGES (cheaper than parsing; `add` still parses every code). */
function boardOf(code: string): NonNullable<EmuInstrument['board']> {
  const s = code.slice(2)
  if (code.startsWith('bj')) return 'bj'
  if (code.startsWith('sh')) return s.startsWith('68') ? 'star' : 'sh-main'
  return s.startsWith('30') ? 'chinext' : 'sz-main'
}

/** Eastmoney market number for an A-share-exchange code (README: sh → 1, sz and bj → 0). */
const aSecid = (prefix: string, symbol: string) => `${prefix === 'sh' ? 1 : 0}.${symbol}`

/** Picks `count` codes of a range: the forced ones plus the rest by hash, ascending. */
function pickCodes(r: CodeRange, forced: Set<string>): string[] {
  const code = (n: number) => r.prefix + six(n)
  const must = [...forced].filter((c) => c.startsWith(r.prefix) && +c.slice(2) >= r.from && +c.slice(2) <= r.to)
  // Numbers only until the end: ranges run to 10,000 codes and this runs once per range.
  const size = r.to - r.from + 1
  const keys = new Float64Array(size)
  const salt = hashString(r.prefix + r.from)
  for (let k = 0; k < size; k++) keys[k] = hash(salt, SALT.pick, r.from + k) * 1e5 + k
  keys.sort()
  const out = new Set(must)
  for (let k = 0; k < size && out.size < r.count; k++) out.add(code(r.from + (keys[k] % 1e5)))
  return [...out].sort()
}

/** Listing date for position `x` in [0, 1) of a range, jittered, on a trading day. */
function listingDate(r: CodeRange, x: number, seed: number): string {
  if (r.opening && uniform(seed, SALT.listDate, 1) < r.opening) return r.dates[0][0]
  let acc = 0
  for (let k = 0; k < r.dates.length; k++) {
    const [from, to, share] = r.dates[k]
    if (x < acc + share || k === r.dates.length - 1) {
      const f = dayNumber(from)
      const t = dayNumber(to)
      const pos = clamp((x - acc) / share, 0, 1)
      const day = clamp(Math.round(f + (t - f) * pos + (uniform(seed, SALT.listDate) - 0.5) * 90), f, t)
      return fromDayNumber(sessionDayOnOrAfter('cn', day))
    }
    acc += share
  }
  return r.dates[0][0]
}

function build(): Universe {
  const list: EmuInstrument[] = []
  const profiles = new Map<string, Profile>()
  const add = (code: string, f: Omit<EmuInstrument, 'code' | 'prefix' | 'symbol' | 'kind' | 'board'>, p: Profile) => {
    // Through the parser, so every code round-trips; fields listed out to keep one object shape.
    const s = parseSymbol(code)
    const inst: EmuInstrument = {
      code: s.code, prefix: s.prefix, symbol: s.symbol, kind: s.kind, board: s.board,
      name: f.name, listDate: f.listDate, decimals: f.decimals, limit: f.limit,
      floatShares: f.floatShares, totalShares: f.totalShares, currency: f.currency, secid: f.secid,
    }
    if (f.lastDate) inst.lastDate = f.lastDate
    list.push(inst)
    profiles.set(inst.code, p)
  }
  // Every real name is reserved before any synthetic one is drawn: a synthetic name (or its `*ST`
  // form) is never a real stock's, in the universe or not, nor reads as one (names.ts).
  const listed = realNames()
  const taken = new Set<string>()
  for (const name of [...listed.values(), ...Object.values(REAL_STOCKS).map((s) => s.name)]) reserve(taken, name)
  const forced = new Set(Object.keys(REAL_STOCKS))

  // Stocks, range by range.
  const stocks: EmuInstrument[] = []
  for (const r of RANGES) {
    const codes = pickCodes(r, forced)
    codes.forEach((code, i) => {
      const board = boardOf(code)
      const seed = hashString(code)
      const real = REAL_STOCKS[code]
      const realName = real?.name ?? listed.get(code)
      const bp = BOARD_PARAMS[board]
      const listDate = real?.listDate ?? listingDate(r, (i + 0.5) / codes.length, seed)
      // A real name says whether the stock is under special treatment; a synthetic one is drawn.
      const mainBoard = board === 'sh-main' || board === 'sz-main'
      const st = realName !== undefined ? mainBoard && /^S?\*?ST/.test(realName) : mainBoard && uniform(seed, SALT.st) < 0.052
      const name = realName ?? (st ? stName(uniqueName(seed, taken), uniform(seed, SALT.st, 1) < 0.5) : uniqueName(seed, taken))
      const logStart = real ? Math.log(real.start) : clamp(Math.log(bp.price) + 0.7 * bnorm(seed, SALT.level), Math.log(3.5), Math.log(400))
      const logEnd = real ? Math.log(real.end) : clamp(logStart + 0.45 * bnorm(seed, SALT.trend) + (st ? -0.4 : 0.05), Math.log(3), Math.log(900))
      // Market value drives share counts, turnover and (inversely) volatility: small caps move more.
      const capScale = code.startsWith('sh601') ? 3 : board === 'bj' ? 0.3 : st ? 0.4 : 1
      const cap = clamp(Math.exp(Math.log(7e9 * capScale) + 0.9 * bnorm(seed, SALT.shares)), 8e8, 5e11)
      const totalShares = real?.totalShares ?? Math.round(cap / Math.exp(logEnd) / 1e4) * 1e4
      const recent = listDate >= '2023-01-01'
      const floatRatio = recent ? 0.25 + 0.25 * uniform(seed, SALT.shares, 1) : 0.6 + 0.4 * uniform(seed, SALT.shares, 1)
      const floatShares = real?.floatShares ?? Math.round((totalShares * floatRatio) / 100) * 100
      const turnover = real?.turnover ?? clamp(1.5 * bp.turnover * (cap / 7e9) ** -0.3 * Math.exp(0.3 * bnorm(seed, SALT.turnover)), 0.25, 6)
      const sigma = real?.sigma ?? bp.sigma * Math.exp(0.2 * bnorm(seed, SALT.sigma)) * (st ? 0.9 : 1) * clamp((cap / 7e9) ** -0.08, 0.8, 1.25)
      const fields = {
        name,
        listDate,
        decimals: 2,
        limit: st ? 0.05 : board === 'bj' ? 0.3 : board === 'star' || board === 'chinext' ? 0.2 : 0.1,
        floatShares,
        totalShares,
        currency: 'CNY' as const,
        secid: aSecid(code.slice(0, 2), code.slice(2)),
      }
      add(code, fields, baseProfile(code, 'cn', listDate, {
        logStart, logEnd, sigma, beta: 0.55, kappa: 0.05, floor: 2.5,
        limitProb: st ? 0.015 : bp.limitProb, suspendProb: 0.05,
        volumeMode: 'float', volBase: turnover, lot: 100,
        payer: code === 'sh600519' ? 1 : st ? 0.2 : 0.55 + 0.4 * uniform(seed, SALT.dividend),
        bonusGroup: code === 'sz300750' || (!st && uniform(seed, SALT.bonus) < 0.15),
      }))
      stocks.push(list[list.length - 1])
    })
  }

  // Indexes.
  for (const [code, s] of Object.entries(INDEXES)) {
    add(code, { name: s.name, listDate: s.listDate, decimals: 2, limit: null, floatShares: null, totalShares: null, currency: 'CNY', secid: aSecid(code.slice(0, 2), code.slice(2)) },
      baseProfile(code, 'cn', s.listDate, {
        logStart: Math.log(s.start), logEnd: Math.log(s.end), sigma: s.sigma, beta: 0.95, kappa: 0.08, floor: 100,
        volumeMode: 'index', volBase: s.volume, amountPx: s.amountPx,
      }))
  }

  // ETFs.
  for (const [code, s] of Object.entries(ETFS)) {
    const seed = hashString(code)
    add(code, { name: s.name, listDate: s.listDate, decimals: 3, limit: 0.1, floatShares: s.units, totalShares: s.units, currency: 'CNY', secid: aSecid(code.slice(0, 2), code.slice(2)) },
      baseProfile(code, 'cn', s.listDate, {
        logStart: Math.log(s.start), logEnd: Math.log(s.end), sigma: 0.055, beta: 0.7, kappa: 0.06, floor: 0.3,
        volumeMode: 'float', volBase: 1 + 3 * uniform(seed, SALT.turnover), lot: 100,
      }))
  }

  // Convertible bonds: issuers drawn from the matching board.
  const bondRanges: Array<[prefix: string, from: number, to: number, count: number, issuer: (i: EmuInstrument) => boolean]> = [
    ['sh', 110043, 110099, 6, (i) => i.board === 'sh-main'],
    ['sh', 113001, 113699, 12, (i) => i.board === 'sh-main'],
    ['sh', 118000, 118050, 6, (i) => i.board === 'star'],
    ['sz', 123001, 123250, 10, (i) => i.board === 'chinext'],
    ['sz', 127001, 127099, 4, (i) => i.board === 'sz-main'],
    ['sz', 128001, 128145, 2, (i) => i.board === 'sz-main'],
  ]
  const bondNames = new Set<string>()
  // Codes other tests and examples use; the rest are drawn by hash.
  const knownBonds = new Set(['sh110050', 'sh113050', 'sz123100'])
  for (const [prefix, from, to, count, isIssuer] of bondRanges) {
    // A bond's name starts with two Chinese characters of its issuer's (`TCL科技` issues none here).
    const pool = stocks.filter((s) => isIssuer(s) && !s.name.includes('ST') && /^[\u4e00-\u9fff]{2}/.test(s.name) && s.listDate < '2024-01-01')
    const codes = pickCodes({ prefix: prefix as 'sh', from, to, count, dates: [] }, knownBonds)
    for (const code of codes) {
      const seed = hashString(code)
      let issuer = pool[hash(seed, SALT.pick) % pool.length]
      for (let k = 1; bondNames.has(bondName(issuer.name)); k++) issuer = pool[hash(seed, SALT.pick, k) % pool.length]
      bondNames.add(bondName(issuer.name))
      const earliest = Math.max(dayNumber(issuer.listDate) + 365, dayNumber('2017-01-03'))
      const listDate = fromDayNumber(sessionDayOnOrAfter('cn', Math.round(earliest + (dayNumber('2025-12-31') - earliest) * uniform(seed, SALT.listDate))))
      const units = Math.round(Math.exp(Math.log(5e6) + 0.8 * bnorm(seed, SALT.shares)) / 10) * 10
      const start = 100 + 15 * uniform(seed, SALT.level)
      add(code, { name: bondName(issuer.name), listDate, decimals: 3, limit: 0.2, floatShares: units, totalShares: units, currency: 'CNY', secid: aSecid(prefix, code.slice(2)) },
        baseProfile(code, 'cn', listDate, {
          logStart: Math.log(start), logEnd: clamp(Math.log(125) + 0.2 * bnorm(seed, SALT.trend), Math.log(100), Math.log(185)),
          sigma: 0.045, beta: 0.4, kappa: 0.1, floor: 90,
          volumeMode: 'float', volBase: clamp(8 * Math.exp(0.5 * bnorm(seed, SALT.turnover)), 1, 40), lot: 100,
        }))
    }
  }

  // Industry sectors: index-like.
  for (const [bk, name] of Object.entries(SECTORS)) {
    const code = 'pt' + bk
    const seed = hashString(code)
    const start = clamp(Math.exp(Math.log(3000) + 1.0 * bnorm(seed, SALT.level)), 600, 30000)
    add(code, { name, listDate: '2010-01-04', decimals: 2, limit: null, floatShares: null, totalShares: null, currency: 'CNY', secid: '90.BK' + bk },
      baseProfile(code, 'cn', '2010-01-04', {
        logStart: Math.log(start), logEnd: Math.log(start) + 0.4 * bnorm(seed, SALT.trend), sigma: 0.07, beta: 0.8, kappa: 0.07, floor: 100,
        volumeMode: 'index', volBase: Math.exp(Math.log(1.5e9) + 0.7 * bnorm(seed, SALT.volume)), amountPx: Math.exp(Math.log(15) + 0.4 * bnorm(seed, SALT.amountPx)),
      }))
  }

  // HK.
  for (const [sym, s] of Object.entries(HK_STOCKS)) {
    const code = 'hk' + sym
    add(code, { name: s.name, listDate: s.listDate, decimals: 2, limit: null, floatShares: s.shares, totalShares: s.shares, currency: 'HKD', secid: '116.' + sym },
      baseProfile(code, 'hk', s.listDate, {
        logStart: Math.log(s.start), logEnd: Math.log(s.end), sigma: 0.09, beta: 0.6, kappa: 0.06, floor: 1,
        volumeMode: 'float', volBase: s.turnover, lot: 100,
      }))
  }

  // US: every known listing; tickers without catalog data get hashed levels.
  for (const [t, ex] of Object.entries(US_LISTINGS)) {
    const code = 'us' + t
    const seed = hashString(code)
    const s = US_STOCKS[t] ?? { name: t, listDate: '2010-01-04', start: Math.exp(3.5 + bnorm(seed, SALT.level)), end: Math.exp(3.8 + bnorm(seed, SALT.trend)), shares: 1e9, turnover: 1 }
    add(code, { name: s.name, listDate: s.listDate, decimals: 2, limit: null, floatShares: s.shares, totalShares: s.shares, currency: 'USD', secid: `${US_EXCHANGES[ex].eastmoney}.${t}` },
      baseProfile(code, 'us', s.listDate, {
        logStart: Math.log(s.start), logEnd: Math.log(s.end), sigma: s.turnover > 1.4 ? 0.14 : 0.085, beta: 0.6, kappa: 0.06, floor: 1,
        volumeMode: 'float', volBase: s.turnover, lot: 1,
      }))
  }
  for (const [t, u] of Object.entries(US_INDEXES)) {
    const code = 'us.' + t
    const s = US_INDEX_LEVELS[t]
    add(code, { name: u.name, listDate: s.listDate, decimals: 2, limit: null, floatShares: null, totalShares: null, currency: 'USD', secid: u.eastmoney },
      baseProfile(code, 'us', s.listDate, {
        logStart: Math.log(s.start), logEnd: Math.log(s.end), sigma: s.sigma, beta: 0.95, kappa: 0.08, floor: 100,
        volumeMode: 'index', volBase: s.volume, amountPx: s.amountPx,
      }))
  }

  // Futures: every product, delivery months 2401 … 2712.
  for (const [product, { exchange, name }] of Object.entries(FUTURES_PRODUCTS)) {
    const lv = FUTURES_LEVELS[product]
    for (let y = 24; y <= 27; y++) {
      for (let mo = 1; mo <= 12; mo++) {
        const yymm = `${y}${String(mo).padStart(2, '0')}`
        const code = `fu${product}${yymm}`
        const seed = hashString(code)
        const delivery = `20${yymm.slice(0, 2)}-${yymm.slice(2)}-01`
        const listDate = fromDayNumber(sessionDayOnOrAfter('cn', dayNumber(`20${y - 1}-${yymm.slice(2)}-01`)))
        const lastDate = fromDayNumber(sessionDayOnOrBefore('cn', dayNumber(addDays(delivery, 14))))
        const contract =
          exchange === 'CZCE' ? product + yymm.slice(1) : exchange === 'CFFEX' ? product + yymm : product.toLowerCase() + yymm
        add(code, { name: name + yymm, listDate, lastDate, decimals: 2, limit: exchange === 'CFFEX' ? 0.1 : 0.07, floatShares: null, totalShares: null, currency: 'CNY', secid: `${FUTURES_EXCHANGES[exchange].eastmoney}.${contract}` },
          {
            ...baseProfile(code, 'cn', listDate, {
              logStart: Math.log(lv.start) + 0.02 * bnorm(seed, SALT.level), logEnd: Math.log(lv.end) + 0.02 * bnorm(seed, SALT.trend),
              sigma: lv.sigma, beta: 0.93, market: hashString('market:fu' + product), kappa: 0.06, floor: lv.start * 0.25,
              limitProb: 0.002, volumeMode: 'contracts', volBase: lv.volume, lot: 1, delivery: monthIndex(delivery),
            }),
            lastDay: dayNumber(lastDate),
          })
      }
    }
  }

  // Main continuous contracts (`fuRB0`): listed with the product's first contract; their bars and
  // quotes are the main contract's (futures.ts, model.ts), the profile only gives the calendar.
  // Eastmoney names them product + m in the exchange's case (`113.rbm`, `115.SRM`, `8.IFM`).
  for (const [product, { exchange, name }] of Object.entries(FUTURES_PRODUCTS)) {
    const code = `fu${product}0`
    const first = list.find((i) => i.code === `fu${product}2401`)!
    const upper = exchange === 'CZCE' || exchange === 'CFFEX'
    const secid = `${FUTURES_EXCHANGES[exchange].eastmoney}.${upper ? product + 'M' : product.toLowerCase() + 'm'}`
    // Sina's name for it: the product plus 连续 (螺纹钢连续, captured nf_RB0 lines).
    add(code, { name: name + '连续', listDate: first.listDate, decimals: 2, limit: first.limit, floatShares: null, totalShares: null, currency: 'CNY', secid },
      { ...profiles.get(first.code)!, seed: hashString(code), lastDay: Infinity })
  }

  // Forex.
  for (const [pair, { eastmoney, name }] of Object.entries(FOREX_PAIRS)) {
    const code = 'fx' + pair
    const lv = FOREX_LEVELS[pair]
    add(code, { name, listDate: '2010-01-04', decimals: 4, limit: null, floatShares: null, totalShares: null, currency: pair.endsWith('CNH') ? 'CNY' : 'USD', secid: `${eastmoney}.${pair}` },
      baseProfile(code, 'fx', '2010-01-04', {
        logStart: Math.log(lv.start), logEnd: Math.log(lv.end), sigma: lv.sigma, beta: 0, market: hashString('market:' + pair), kappa: 0.05, floor: lv.start * 0.4,
        volumeMode: 'none', volBase: 0, lot: 1,
      }))
  }

  return { list, byCode: new Map(list.map((i) => [i.code, i])), profiles }
}
