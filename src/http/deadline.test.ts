import { describe, expect, it } from 'vitest'
import { RequestDeadline, withDeadline } from './deadline'
import { during, holdReservation, markStage } from '../runtime/request-scope'

type Call = [ok: boolean, rows: number, units: number | undefined]

function recorder() {
  const calls: Call[] = []
  const settle = async (ok: boolean, rows: number, units: number | undefined) => void calls.push([ok, rows, units])
  return { calls, settle }
}

describe('RequestDeadline', () => {
  it('settles a held reservation once: the call end after the deadline changes nothing', async () => {
    const waited: Array<Promise<unknown>> = []
    const d = new RequestDeadline(100, (p) => waited.push(p))
    const { calls, settle } = recorder()
    expect(d.hold(settle)).toBe(true)
    const res = d.expire('/v1/quote', 100)
    await Promise.all(waited)
    expect(calls).toEqual([[false, 0, undefined]])
    await d.settle(true, 30, undefined)
    expect(calls).toEqual([[false, 0, undefined]])
    expect(res.status).toBe(504)
    expect(await res.json()).toMatchObject({ ok: false, endpoint: 'quote', code: 'DEADLINE_EXCEEDED', stage: 'handler', data: null })
  })

  it('refunds at once a reservation that arrives after the deadline, and says the call must stop', async () => {
    const waited: Array<Promise<unknown>> = []
    const d = new RequestDeadline(100, (p) => waited.push(p))
    d.expire('/v1/kline', 100)
    const { calls, settle } = recorder()
    expect(d.hold(settle)).toBe(false)
    await Promise.all(waited)
    expect(calls).toEqual([[false, 0, undefined]])
  })

  it('names the newest work still running, else the stage; the stage is frozen at the deadline', () => {
    const d = new RequestDeadline(100)
    d.mark('admit')
    d.mark('handler')
    const leaveTencent = d.enter('upstream:tencent')
    const leaveStore = d.enter('store')
    expect(d.stage).toBe('store')
    leaveStore()
    expect(d.stage).toBe('upstream:tencent')
    leaveTencent()
    expect(d.stage).toBe('handler')
    d.enter('upstream:sina')
    d.expire('/v1/quote', 100)
    d.mark('handler')
    expect(d.stage).toBe('upstream:sina')
  })
})

describe('withDeadline', () => {
  it('answers with the 504 when the application does not answer in time, naming the stage it reached', async () => {
    const fetch = withDeadline(() => {
      markStage('admit')
      return new Promise<Response>(() => {})
    }, () => 20)
    const res = await fetch(new Request('http://x/v1/quote?code=sh600519'))
    expect(res.status).toBe(504)
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    expect(await res.json()).toMatchObject({ endpoint: 'quote', stage: 'admit', code: 'DEADLINE_EXCEEDED' })
  })

  it("passes the application's own answer through, and each request sees its own deadline", async () => {
    const fetch = withDeadline(async (req: Request) => {
      const held = holdReservation(async () => {})
      await during('store', new Promise((r) => setTimeout(r, 5)))
      return new Response(`${new URL(req.url).pathname} ${held !== null}`)
    }, () => 1_000)
    const [a, b] = await Promise.all([fetch(new Request('http://x/v1/a')), fetch(new Request('http://x/v1/b'))])
    expect([await a.text(), await b.text()]).toEqual(['/v1/a true', '/v1/b true'])
  })

  it('leaves operator routes (/__jobs/*) unbounded', async () => {
    const fetch = withDeadline(() => new Promise<Response>((r) => setTimeout(() => r(new Response('done')), 40)), () => 10)
    expect(await (await fetch(new Request('http://x/__jobs/backfill/chunk'))).text()).toBe('done')
  })
})
