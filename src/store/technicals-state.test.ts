import { describe, expect, it } from 'vitest'
import { encodeState, stateThrough } from '../domain/indicators/step'
import { pickStateLines, statesDay, statesText } from './technicals-state'

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

describe('pickStateLines', () => {
  it('keeps the lines of the codes asked for from a stream cut anywhere, and counts them all', async () => {
    const text = statesText(new Map([['sz000001', state('2026-11-19')], ['sh600519', state('2026-11-19')], ['bj830799', state('2026-11-19')]]))
    const bytes = new TextEncoder().encode(text)
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < bytes.length; i += 7) c.enqueue(bytes.slice(i, i + 7)) // cuts lines and UTF-8 alike
        c.close()
      },
    })
    const picked = await pickStateLines(stream, ['sz000001', 'bj830799', 'sh000001'])
    expect(picked.lines).toBe(3)
    expect(picked.text.split('\n').map((l) => l.split('\t')[0])).toEqual(['bj830799', 'sz000001'])
    expect(statesDay('2026-11-19', picked.text).state('sz000001')).toEqual(statesDay('2026-11-19', text).state('sz000001'))
  })
})
