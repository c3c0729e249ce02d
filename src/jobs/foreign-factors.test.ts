import { describe, expect, it } from 'vitest'
import type { ForeignRow } from '../channels/eastmoney/foreign-list'
import { factorNames } from '../data/factors'
import { FROM_LIST, foreignFactorTable, listDate, listSettled } from './foreign-factors'

const row = (code: string, date: string, extra: Partial<ForeignRow> = {}): ForeignRow => ({
  code, name: code, date, halted: false, close: 10, preClose: 9.8, changePct: 2.04, amplitude: 3, volume: 1e6, amount: 1e7, turnover: 0.5,
  pe: 8, pb: 1.1, totalCap: 123_456_789_000, floatCap: 100_000_000_000, change60d: 4, changeYtd: -2, ...extra,
})

describe('HK and US factor tables', () => {
  it.each(['hk', 'us'] as const)('carry exactly the catalogue’s %s factors', (market) => {
    expect(Object.keys(FROM_LIST).sort()).toEqual(factorNames(market).sort())
  })

  it('date the table by the newest session in the list; a row from an older session has no day values', () => {
    const t = foreignFactorTable('hk', [row('hk00005', '2026-11-20'), row('hk00700', '2026-11-18', { pe: -12.5 })], '2026-11-20T09:00:00Z', true)
    expect(t).toMatchObject({ market: 'hk', date: '2026-11-20', codes: ['hk00005', 'hk00700'] })
    expect(t.final).toBeUndefined()
    expect(t.columns.ClosePrice).toEqual([10, null])
    expect(t.columns.Volume).toEqual([1e6, null])
    // Valuation and size stay: they are the stock's, at its last price.
    expect(t.columns.PB).toEqual([1.1, 1.1])
    // A loss-maker's negative P/E is no P/E, as for hs.
    expect(t.columns.PE_TTM).toEqual([8, null])
    // Caps in 100 million of the listing currency, as hs's are in 100 million CNY.
    expect(t.columns.TotalMV).toEqual([1234.5679, 1234.5679])
    expect(foreignFactorTable('us', [row('usAAPL', '2026-11-19')], 'x', false).final).toBe(false)
  })

  it('takes the newest date a list carries', () => {
    expect(listDate([row('a', '2026-11-18'), row('b', '2026-11-20'), row('c', '2026-11-19')])).toBe('2026-11-20')
    expect(listDate([])).toBe('')
  })

  it('counts a session final from 16:30 exchange time, or once the exchange date has moved on', () => {
    const at = (iso: string) => Date.parse(iso)
    expect(listSettled('hk', '2026-11-20', at('2026-11-20T16:29:00+08:00'))).toBe(false)
    expect(listSettled('hk', '2026-11-20', at('2026-11-20T16:30:00+08:00'))).toBe(true)
    expect(listSettled('hk', '2026-11-20', at('2026-11-21T09:40:00+08:00'))).toBe(true)
    // US: 16:30 Eastern = 21:30 UTC in winter (EST), 20:30 UTC in summer (EDT).
    expect(listSettled('us', '2026-11-20', at('2026-11-20T21:29:00Z'))).toBe(false)
    expect(listSettled('us', '2026-11-20', at('2026-11-20T21:30:00Z'))).toBe(true)
    expect(listSettled('us', '2026-07-15', at('2026-07-15T20:30:00Z'))).toBe(true)
    expect(listSettled('us', '2026-07-15', at('2026-07-15T20:29:00Z'))).toBe(false)
    // Beijing morning of the 21st is still the 20th in New York, before its close.
    expect(listSettled('us', '2026-11-20', at('2026-11-21T05:00:00+08:00'))).toBe(false)
  })
})
