import { describe, expect, it } from 'vitest'
import { SSE_HOLIDAYS } from '../../data/holidays'
import { weekday } from '../../domain/dates'
import { handleSzse, INVENTED_2027 } from './szse'

async function get(url: string): Promise<{ status: number; body: any }> {
  const res = handleSzse(new URL(url), Date.now())
  const text = await res.text()
  return { status: res.status, body: res.status === 200 ? JSON.parse(text) : text }
}

const URL_BASE = 'http://www.szse.cn/api/report/exchange/onepersistenthour/monthList?month='

describe('emulated SZSE month calendar', () => {
  it('lists every day of the month with the trading flag and the weekday (Sunday = 1)', async () => {
    const { status, body } = await get(URL_BASE + '2025-1')
    expect(status).toBe(200)
    expect(body.data).toHaveLength(31)
    expect(body.data[0]).toEqual({ jyrq: '2025-01-01', jybz: '0', zrxh: 4 })
    expect(body.data[1]).toEqual({ jyrq: '2025-01-02', jybz: '1', zrxh: 5 })
    expect(body.data.find((r: any) => r.jyrq === '2025-01-04')).toEqual({ jyrq: '2025-01-04', jybz: '0', zrxh: 7 })
    expect(body.data.find((r: any) => r.jyrq === '2025-01-28').jybz).toBe('0')
  })

  it('closes exactly the weekdays of the bundled table for every month 2016–2026, and of the invented 2027', async () => {
    const years: [number, readonly string[]][] = [...Object.entries(SSE_HOLIDAYS).map(([y, c]) => [Number(y), c] as [number, readonly string[]]), [2027, INVENTED_2027]]
    for (const [year, expected] of years) {
      const closed: string[] = []
      for (let m = 1; m <= 12; m++) {
        const { body } = await get(`${URL_BASE}${year}-${m}`)
        for (const { jyrq, jybz } of body.data) {
          const weekend = weekday(jyrq) === 0 || weekday(jyrq) === 6
          if (weekend) expect(jybz, jyrq).toBe('0')
          else if (jybz === '0') closed.push(jyrq)
        }
      }
      expect(closed, String(year)).toEqual(expected)
    }
  })

  it('answers an empty list for years it has not published', async () => {
    expect((await get(URL_BASE + '2028-1')).body).toMatchObject({ data: [], nowdate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) })
    expect((await get(URL_BASE + '2015-12')).body).toMatchObject({ data: [], nowdate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) })
  })

  it('refuses a malformed month and unknown paths', async () => {
    expect((await get(URL_BASE + '2025-13')).status).toBe(400)
    expect((await get(URL_BASE + '202501')).status).toBe(400)
    expect((await get('http://www.szse.cn/api/other')).status).toBe(404)
  })
})
