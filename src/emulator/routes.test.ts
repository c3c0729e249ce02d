import { afterEach, describe, expect, it } from 'vitest'
import { clearFaults, faults, isClockFixed, now, requestCounts, resetEmulator } from './control'
import { emulatorRoutes } from './routes'

afterEach(() => resetEmulator())

const call = async (method: string, path: string, body?: unknown) => {
  const res = await emulatorRoutes.request(path, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  })
  return { status: res.status, body: (await res.json()) as any }
}

describe('/__emulator', () => {
  it('reports clock, faults and request counters', async () => {
    const { status, body } = await call('GET', '/__emulator')
    expect(status).toBe(200)
    expect(body).toEqual({
      clock: { now: expect.any(String), fixed: false },
      faults: { eastmoney: null, tencent: null, sina: null, ths: null, hkex: null },
      requests: { eastmoney: 0, tencent: 0, sina: 0, ths: 0, hkex: 0 },
      paths: {},
      quote_codes: { requests: 0, median_codes: null, hosts: {} },
    })
    expect(Math.abs(Date.parse(body.clock.now) - Date.now())).toBeLessThan(5_000)
  })

  it('sets, reports and clears a fault per channel', async () => {
    const put = await call('PUT', '/__emulator/faults/tencent', { kind: 'slow', ms: 500, count: 3 })
    expect(put.status).toBe(200)
    expect(put.body.faults.tencent).toEqual({ kind: 'slow', ms: 500, count: 3 })
    expect(faults().tencent).toEqual({ kind: 'slow', ms: 500, count: 3 })
    await call('PUT', '/__emulator/faults/sina', { kind: 'http' })
    const del = await call('DELETE', '/__emulator/faults/tencent')
    expect(del.body.faults).toEqual({ eastmoney: null, tencent: null, sina: { kind: 'http' }, ths: null, hkex: null })
    const all = await call('DELETE', '/__emulator/faults')
    expect(all.body.faults).toEqual({ eastmoney: null, tencent: null, sina: null, ths: null, hkex: null })
  })

  it('answers 404 with error and code for an unknown channel', async () => {
    for (const [method, body] of [['PUT', { kind: 'http' }], ['DELETE', undefined]] as const) {
      const res = await call(method, '/__emulator/faults/xueqiu', body)
      expect(res.status).toBe(404)
      expect(res.body).toEqual({ error: expect.stringContaining('xueqiu'), code: 'UNKNOWN_CHANNEL' })
    }
  })

  it('refuses a bad fault body with a FastAPI-style 422', async () => {
    const bad = await call('PUT', '/__emulator/faults/eastmoney', { kind: 'boom', count: 0 })
    expect(bad.status).toBe(422)
    expect(bad.body.detail).toEqual([
      { type: 'literal_error', loc: ['body', 'kind'], msg: "Input should be 'timeout', 'http', 'ban', 'garbage', 'empty', 'slow', 'hang', 'truncated', 'nan', 'fields'", input: 'boom' },
      { type: 'greater_than_equal', loc: ['body', 'count'], msg: 'Input should be greater than or equal to 1', input: 0 },
    ])
    const missing = await call('PUT', '/__emulator/faults/eastmoney', {})
    expect(missing.body.detail[0]).toMatchObject({ type: 'missing', loc: ['body', 'kind'], msg: 'Field required' })
    const notInt = await call('PUT', '/__emulator/faults/eastmoney', { kind: 'slow', ms: 1.5 })
    expect(notInt.body.detail[0]).toMatchObject({ type: 'int_type', loc: ['body', 'ms'], input: 1.5 })
    // A wait is at most 30 s; a ban's term may be a day.
    const long = await call('PUT', '/__emulator/faults/eastmoney', { kind: 'slow', ms: 30_001 })
    expect(long.body.detail).toEqual([{ type: 'less_than_equal', loc: ['body', 'ms'], msg: 'Input should be less than or equal to 30000', input: 30_001 }])
    expect((await call('PUT', '/__emulator/faults/eastmoney', { kind: 'ban', ms: 86_400_001 })).status).toBe(422)
    expect((await call('PUT', '/__emulator/faults/eastmoney', { kind: 'ban', ms: 3_600_000 })).status).toBe(200)
    clearFaults()
    const notJson = await call('PUT', '/__emulator/faults/eastmoney', '{nope')
    expect(notJson.status).toBe(422)
    expect(notJson.body.detail[0].type).toBe('json_invalid')
    expect(faults().eastmoney).toBeNull()
  })

  it('fixes the clock from an ISO 8601 instant with offset, and releases it', async () => {
    const put = await call('PUT', '/__emulator/clock', { now: '2025-01-02T15:00:00+08:00' })
    expect(put.status).toBe(200)
    expect(put.body.clock).toEqual({ now: '2025-01-02T07:00:00.000Z', fixed: true })
    expect(now()).toBe(Date.parse('2025-01-02T07:00:00Z'))
    const bad = await call('PUT', '/__emulator/clock', { now: '2025-01-02 15:00' })
    expect(bad.status).toBe(422)
    expect(bad.body.detail[0]).toMatchObject({ loc: ['body', 'now'], input: '2025-01-02 15:00' })
    const del = await call('DELETE', '/__emulator/clock')
    expect(del.body.clock.fixed).toBe(false)
    expect(isClockFixed()).toBe(false)
  })

  it('resets faults, clock and counters', async () => {
    await call('PUT', '/__emulator/faults/eastmoney', { kind: 'timeout' })
    await call('PUT', '/__emulator/clock', { now: '2025-01-02T15:00:00Z' })
    const { body } = await call('POST', '/__emulator/reset')
    expect(body.faults).toEqual({ eastmoney: null, tencent: null, sina: null, ths: null, hkex: null })
    expect(body.clock.fixed).toBe(false)
    expect(requestCounts()).toEqual({ eastmoney: 0, tencent: 0, sina: 0, ths: 0, hkex: 0 })
  })
})

describe('/__emulator/wire', () => {
  const wire = (url: string) => emulatorRoutes.request(`/__emulator/wire?url=${encodeURIComponent(url)}`)

  it("answers an upstream URL with the host's own status, content type and bytes, counting nothing", async () => {
    const { setClock } = await import('./control')
    setClock(Date.parse('2026-11-20T10:30:00+08:00'))
    const res = await wire('https://qt.gtimg.cn/q=sh600519')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/charset=GBK/i)
    const text = new TextDecoder('gbk').decode(await res.arrayBuffer())
    expect(text).toMatch(/^v_sh600519="1~贵州茅台~600519~/)
    const unknownPath = await wire('https://push2.eastmoney.com/api/qt/nothing/get')
    expect(unknownPath.status).toBe(404)
    expect(requestCounts()).toEqual({ eastmoney: 0, tencent: 0, sina: 0, ths: 0, hkex: 0 })
  })

  it('refuses a missing or malformed URL and a host it does not serve, naming the field', async () => {
    for (const path of ['/__emulator/wire', '/__emulator/wire?url=not%20a%20url', `/__emulator/wire?url=${encodeURIComponent('https://example.com/x')}`]) {
      const res = await emulatorRoutes.request(path)
      expect(res.status, path).toBe(422)
      expect(((await res.json()) as any).detail[0].loc).toEqual(['query', 'url'])
    }
  })
})
