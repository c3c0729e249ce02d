import { describe, expect, it } from 'vitest'
import { SSE_HOLIDAYS } from '../../data/holidays'
import { datesOfMonth } from '../../domain/dates'
import { handleSzse, INVENTED_2027 } from '../../emulator/wire/szse'
import { checkYear, fetchSzseMonth, parseSzseMonth, szseMonthUrl } from './month-calendar'

/** A well-formed January 2025 as SZSE sends it. */
function january2025() {
  const closed = new Set(['2025-01-01', '2025-01-28', '2025-01-29', '2025-01-30', '2025-01-31'])
  return {
    data: datesOfMonth(2025, 1).map((d) => {
      const w = new Date(d + 'T00:00:00Z').getUTCDay()
      return { jyrq: d, jybz: w === 0 || w === 6 || closed.has(d) ? '0' : '1', zrxh: w + 1 }
    }),
  }
}

describe('parseSzseMonth', () => {
  it('reads the closed weekdays and counts the sessions', () => {
    expect(parseSzseMonth(january2025(), 2025, 1)).toEqual({
      status: 'ok',
      closed: ['2025-01-01', '2025-01-28', '2025-01-29', '2025-01-30', '2025-01-31'],
      sessions: 18,
    })
  })

  it('accepts an answer that lists weekdays only, and numeric flags', () => {
    const body = january2025()
    body.data = body.data.filter((r) => r.zrxh !== 1 && r.zrxh !== 7).map((r) => ({ ...r, jybz: Number(r.jybz) as any }))
    expect(parseSzseMonth(body, 2025, 1)).toMatchObject({ status: 'ok', sessions: 18 })
  })

  it('treats an empty list as not published', () => {
    expect(parseSzseMonth({ data: [] }, 2028, 1)).toEqual({ status: 'unpublished' })
  })

  it.each([
    ['no data array', () => ({ result: [] })],
    ['a missing weekday', () => ({ data: january2025().data.filter((r) => r.jyrq !== '2025-01-15') })],
    ['weekend trading', () => ({ data: january2025().data.map((r) => (r.jyrq === '2025-01-04' ? { ...r, jybz: '1' } : r)) })],
    ['a duplicate day', () => ({ data: [...january2025().data, january2025().data[5]] })],
    ['a date of another month', () => ({ data: [...january2025().data, { jyrq: '2025-02-03', jybz: '1', zrxh: 2 }] })],
    ['an unknown flag', () => ({ data: january2025().data.map((r) => (r.jyrq === '2025-01-02' ? { ...r, jybz: 'Y' } : r)) })],
    ['a wrong weekday number', () => ({ data: january2025().data.map((r) => (r.jyrq === '2025-01-02' ? { ...r, zrxh: 2 } : r)) })],
    ['too few sessions', () => ({ data: january2025().data.map((r) => ({ ...r, jybz: r.jyrq < '2025-01-25' ? '0' : r.jybz })) })],
  ])('rejects %s', (_why, body) => {
    expect(parseSzseMonth(body(), 2025, 1).status).toBe('invalid')
  })
})

describe('checkYear', () => {
  const y2025 = ['2025-01-01', '2025-01-28', '2025-01-29', '2025-01-30', '2025-01-31', '2025-02-03', '2025-02-04', '2025-04-04', '2025-05-01', '2025-05-02', '2025-05-05', '2025-06-02', '2025-10-01', '2025-10-02', '2025-10-03', '2025-10-06', '2025-10-07', '2025-10-08']

  it('accepts a real year', () => {
    expect(checkYear(2025, y2025)).toBeUndefined()
  })

  it('rejects a placeholder year that trades on New Year or National Day, or closes too few days', () => {
    expect(checkYear(2025, y2025.slice(1))).toMatch(/2025-01-01/)
    expect(checkYear(2025, y2025.filter((d) => d !== '2025-10-01'))).toMatch(/2025-10-01/)
    expect(checkYear(2025, ['2025-01-01', '2025-10-01'])).toMatch(/implausible/)
  })
})

describe('fetchSzseMonth', () => {
  const ctx = (respond: (url: string) => Response) => ({ fetch: (async (u: string) => respond(u)) as unknown as typeof fetch, timeoutMs: 1000 })

  it('asks for the month without a leading zero', async () => {
    let asked = ''
    await fetchSzseMonth(ctx((u) => ((asked = u), Response.json(january2025()))), 2025, 1)
    expect(asked).toBe(szseMonthUrl(2025, 1))
    expect(asked).toMatch(/month=2025-1$/)
  })

  it('reports non-JSON as invalid and HTTP errors as a thrown channel error', async () => {
    expect(await fetchSzseMonth(ctx(() => new Response('<html>')), 2025, 1)).toEqual({ status: 'invalid', reason: 'not JSON' })
    await expect(fetchSzseMonth(ctx(() => new Response('no', { status: 503 })), 2025, 1)).rejects.toThrow(/szse: http/)
  })
})

describe('parseSzseMonth on the emulated SZSE answers', () => {
  const month = async (year: number, m: number) => parseSzseMonth(await handleSzse(new URL(szseMonthUrl(year, m)), Date.now()).json(), year, m)

  it('reads back the bundled table for every year 2016–2026, and the invented 2027', async () => {
    const years: [number, readonly string[]][] = [...Object.entries(SSE_HOLIDAYS).map(([y, c]) => [Number(y), c] as [number, readonly string[]]), [2027, INVENTED_2027]]
    for (const [year, expected] of years) {
      const closed: string[] = []
      for (let m = 1; m <= 12; m++) {
        const out = await month(year, m)
        expect(out.status, `${year}-${m}`).toBe('ok')
        if (out.status === 'ok') closed.push(...out.closed)
      }
      expect(closed).toEqual(expected)
      expect(checkYear(year, closed)).toBeUndefined()
    }
  })

  it('sees a year the emulator has not published as unpublished', async () => {
    expect(await month(2028, 1)).toEqual({ status: 'unpublished' })
  })
})

// A real SZSE answer (test/fixtures/szse/SOURCE.md): October 2024, taken on Saturday 2024-11-09,
// pretty-printed by the project that kept it.
const OCTOBER_2024 = Object.values(import.meta.glob('/test/fixtures/szse/monthlist-2024-10-nowdate-2024-11-09.json', { query: '?raw', import: 'default', eager: true }))[0] as string

describe('parseSzseMonth on a captured SZSE answer', () => {
  const body = JSON.parse(OCTOBER_2024) as { data: { zrxh: number; jybz: string; jyrq: string }[]; nowdate: string }

  it('reads the National Day holiday and 18 sessions, ignoring the nowdate key', () => {
    expect(Object.keys(body)).toEqual(['data', 'nowdate'])
    expect(body.nowdate).toBe('2024-11-09')
    expect(parseSzseMonth(body, 2024, 10)).toEqual({
      status: 'ok',
      closed: ['2024-10-01', '2024-10-02', '2024-10-03', '2024-10-04', '2024-10-07'],
      sessions: 18,
    })
  })

  it('adds up on its own: every day of the month once, weekends closed, zrxh the weekday with Sunday = 1', () => {
    expect(body.data.map((r) => r.jyrq)).toEqual(datesOfMonth(2024, 10))
    for (const r of body.data) {
      const w = new Date(r.jyrq + 'T00:00:00Z').getUTCDay()
      expect(r.zrxh, r.jyrq).toBe(w + 1)
      if (w === 0 || w === 6) expect(r.jybz, r.jyrq).toBe('0')
    }
    expect(body.data.filter((r) => r.jybz === '1')).toHaveLength(18)
  })

  it('agrees with the bundled 2024 table and with the emulated month, day by day', async () => {
    const closed2024 = SSE_HOLIDAYS[2024].filter((d) => d.startsWith('2024-10-'))
    expect(closed2024).toEqual(['2024-10-01', '2024-10-02', '2024-10-03', '2024-10-04', '2024-10-07'])
    const emulated = (await handleSzse(new URL(szseMonthUrl(2024, 10)), Date.parse('2024-11-09T10:00:00+08:00')).json()) as { data: unknown[] }
    // Asked on the day the capture was taken, the emulator answers it to the byte's meaning, `nowdate` included.
    expect(emulated).toEqual(body)
  })
})
