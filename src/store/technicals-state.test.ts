import { describe, expect, it } from 'vitest'
import { encodeState, stateThrough } from '../domain/indicators/step'
import { statesDay, statesText } from './technicals-state'

const bar = (date: string, close: number) => ({ date, open: close, high: close + 1, low: close - 1, close, volume: 1000 })
const state = (date: string) => encodeState(stateThrough([bar('2026-11-18', 10), bar(date, 11)]))

describe('statesDay', () => {
  it('finds each code\'s state in the stored text, sorted by code, and decodes it on demand', () => {
    const text = statesText(new Map([['sz000001', state('2026-11-19')], ['sh600519', state('2026-11-19')]]))
    expect(text.split('\n').map((l) => l.split('\t')[0])).toEqual(['sh600519', 'sz000001'])
    const day = statesDay('2026-11-19', text)
    expect(day.size).toBe(2)
    expect(day.state('sz000001')).toMatchObject({ date: '2026-11-19', i: 2, c: [10, 11] })
    // EMA12 is defined from the first bar; KDJ's K not before the ninth (stored null, read back NaN)
    const ys = day.state('sh600519')!.ys
    expect([Number.isFinite(ys[0]), Number.isNaN(ys[3])]).toEqual([true, true])
    expect(day.state('sh000001')).toBeUndefined()
  })

  it('gives no state for a damaged line or a state of another day (that symbol takes the whole-history path)', () => {
    const text = statesText(new Map([['sh600519', '{"v":1,"date":'], ['sz000001', state('2026-11-18')]]))
    const day = statesDay('2026-11-19', text)
    expect(day.size).toBe(2)
    expect(day.state('sh600519')).toBeUndefined()
    expect(day.state('sz000001')).toBeUndefined()
  })
})
