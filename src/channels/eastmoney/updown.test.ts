import { describe, expect, it } from 'vitest'
import { createEmulatorFetch, resetEmulator, setClock } from '../../emulator/control'
import { market } from '../../emulator/market'
import { failureKind } from '../testkit'
import { fetchUpDown, parseUpDown, upDownUrl } from './updown'
import captured from '../../../test/fixtures/push2/updown-2026-07-01.json?raw'

// In the shape of upstreams.md §4.4 (one-key objects, keys -11..11).
const SAMPLE = JSON.stringify({
  rc: 0, rt: 4, svr: 1, lt: 1, full: 1, dlmkts: '',
  data: { qdate: 20250102, fenbu: [{ '-11': 12 }, { '-10': 30 }, { '-1': 800 }, { '0': 105 }, { '1': 900 }, { '10': 40 }, { '11': 67 }] },
})

describe('parseUpDown', () => {
  it('reads the bucket counts for the date asked', () => {
    const u = parseUpDown(SAMPLE, '2025-01-02')
    expect(u.date).toBe('2025-01-02')
    expect(Object.fromEntries(u.counts)).toEqual({ '-11': 12, '-10': 30, '-1': 800, '0': 105, '1': 900, '10': 40, '11': 67 })
  })

  it('reads a real answer (2026-07-01), whose buckets come in the order of their keys as text', () => {
    const u = parseUpDown(captured, '2026-07-01')
    expect(u.counts.size).toBe(23)
    const sum = (keep: (k: number) => boolean) => [...u.counts].filter(([k]) => keep(k)).reduce((n, [, v]) => n + v, 0)
    // The test that kept it counts 4367 up, 910 down, 25 unchanged, 134 at the limit up.
    expect([sum((k) => k > 0), sum((k) => k < 0), u.counts.get(0), u.counts.get(11), u.counts.get(-11)]).toEqual([4367, 910, 25, 134, 1])
  })

  it('calls data:null empty (a closed day)', () => {
    expect(failureKind(() => parseUpDown('{"rc":0,"data":null}', '2025-01-04'))).toBe('empty')
    // Refusals of push2ex (a token it does not take, a missing date) are failures, not "no data".
    expect(failureKind(() => parseUpDown('{"rc":205,"data":null}', '2025-01-04'))).toBe('malformed')
    expect(failureKind(() => parseUpDown('{"rc":102,"rt":1,"data":null}', '2025-01-04'))).toBe('malformed')
  })

  it.each([
    ['another date', SAMPLE, '2025-01-03'],
    ['a key out of range', SAMPLE.replace('"11":67', '"12":67'), '2025-01-02'],
    ['a key twice', SAMPLE.replace('"10":40', '"11":40'), '2025-01-02'],
    ['a negative count', SAMPLE.replace('"0":105', '"0":-1'), '2025-01-02'],
    ['a two-key item', SAMPLE.replace('{"0":105}', '{"0":105,"1":2}'), '2025-01-02'],
    ['no fenbu', '{"rc":0,"data":{"qdate":20250102}}', '2025-01-02'],
  ])('refuses %s as malformed', (_why, text, date) => {
    expect(failureKind(() => parseUpDown(text, date))).toBe('malformed')
  })

  it('asks for the date in YYYYMMDD form', () => {
    expect(upDownUrl('2025-01-02')).toBe('https://push2ex.eastmoney.com/getTopicZDFenBu?ut=7eea3edcaed734bea9cbfc24409ed989&dpt=wz.ztzt&date=20250102')
  })
})

describe('fetchUpDown over the emulator', () => {
  it('reads a closed session and refuses one still trading or a closed day', async () => {
    resetEmulator()
    setClock(Date.parse('2026-11-20T10:30:00+08:00'))
    const ctx = { fetch: createEmulatorFetch(market), timeoutMs: 10_000 }
    const u = await fetchUpDown(ctx, '2026-11-19')
    expect([...u.counts.keys()].sort((a, b) => a - b)).toEqual(Array.from({ length: 23 }, (_, i) => i - 11))
    // Listed in the real answer's order (fixtures/push2/updown-2026-07-01.json).
    const realOrder = (JSON.parse(captured).data.fenbu as object[]).map((o) => Number(Object.keys(o)[0]))
    expect([...u.counts.keys()]).toEqual(realOrder)
    expect([...u.counts.values()].reduce((a, b) => a + b, 0)).toBeGreaterThan(5000)
    await expect(fetchUpDown(ctx, '2026-11-20')).rejects.toMatchObject({ kind: 'empty' })
    await expect(fetchUpDown(ctx, '2026-11-15')).rejects.toMatchObject({ kind: 'empty' })
    setClock(null)
  })
})
