import { describe, expect, it } from 'vitest'
import { fromDayNumber } from '../../domain/dates'
import { eventSpecs, LAST_EVENT_YEAR } from './events'
import { cacheKeyOf, profileOf, universe } from './universe'

const { list, byCode } = universe()
const specsOf = (code: string) => eventSpecs(byCode.get(code)!, profileOf(byCode.get(code)!))

describe('event specs', () => {
  it('gives 贵州茅台 a cash dividend every year since 2017', () => {
    const years = specsOf('sh600519').map((s) => +fromDayNumber(s.exDay).slice(0, 4))
    expect(years).toEqual(Array.from({ length: LAST_EVENT_YEAR - 2016 }, (_, i) => 2017 + i))
    for (const s of specsOf('sh600519')) expect(s.yield).toBeGreaterThan(0)
  })

  it('keeps another market\'s instrument with a real code apart from the universe\'s (the wire tests\' small market)', () => {
    const real = byCode.get('sh600519')!
    const other = { ...real, listDate: '2023-01-03' }
    const yearsOf = (specs: ReturnType<typeof eventSpecs>) => specs.map((s) => +fromDayNumber(s.exDay).slice(0, 4))
    expect(Math.min(...yearsOf(eventSpecs(other, profileOf(real))))).toBeGreaterThanOrEqual(2024)
    expect(yearsOf(specsOf('sh600519'))[0]).toBe(2017)
    expect(cacheKeyOf(real)).toBe('sh600519')
    expect(cacheKeyOf(other)).not.toBe('sh600519')
    expect(cacheKeyOf(other)).toBe(cacheKeyOf(other))
  })

  it('gives 宁德时代 several events including a bonus', () => {
    const specs = specsOf('sz300750')
    expect(specs.length).toBeGreaterThanOrEqual(3)
    expect(specs.some((s) => s.bonus > 0)).toBe(true)
  })

  it('plans dividends in May–July, mostly yearly, with bonus issues for about 15% of stocks', () => {
    const stocks = list.filter((i) => i.kind === 'stock')
    let withBonus = 0
    let severalWithBonus = 0
    for (const s of stocks) {
      const specs = eventSpecs(s, profileOf(s))
      for (const e of specs) {
        const md = fromDayNumber(e.exDay).slice(5)
        expect(md >= '05-15' && md <= '08-15').toBe(true)
        expect(e.yield === 0 || (e.yield >= 0.008 && e.yield <= 0.03)).toBe(true)
        expect(e.bonus === 0 || (e.bonus >= 0.2 && e.bonus <= 1)).toBe(true)
        expect(e.exDay).toBeGreaterThan(profileOf(s).firstDay)
      }
      if (specs.some((e) => e.bonus > 0)) {
        withBonus++
        if (specs.length >= 3) severalWithBonus++
      }
    }
    expect(withBonus / stocks.length).toBeGreaterThan(0.1)
    expect(withBonus / stocks.length).toBeLessThan(0.2)
    expect(severalWithBonus).toBeGreaterThan(50)
    expect(eventSpecs(byCode.get('sh000001')!, profileOf(byCode.get('sh000001')!))).toEqual([])
  })
})
