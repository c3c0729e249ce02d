import { describe, expect, it } from 'vitest'
import { call } from '../../test/helpers'
import { nextTurn, pacedContext, pacer, workLane } from './pace'

/** Work whose awaits all resolve in-process (as the emulator's upstreams and local R2 do): no I/O. */
const inProcess = () => Promise.resolve()

describe('pacer', () => {
  it('asks for a turn once the costs since the last one reach the budget, and not before', () => {
    const pace = pacer(3)
    const turns = [1, 1, 1, 1, 2, 5, 1].map((cost) => pace(cost) !== undefined)
    expect(turns).toEqual([false, false, true, false, true, true, false])
  })
})

describe('nextTurn', () => {
  it('lets what waits on the event loop run first (a timer set before it)', async () => {
    const order: string[] = []
    setTimeout(() => order.push('timer'), 0)
    await nextTurn()
    order.push('after the turn')
    expect(order).toEqual(['timer', 'after the turn'])
  })

  it('lets a request in while a job loop runs: it is answered before the loop ends', async () => {
    const order: string[] = []
    const request = call('/v1/health').then(async (r) => {
      await r.text()
      order.push(`request ${r.status}`)
    })
    // The loop stops early once the request is answered; a loop that held it would run to its end.
    for (let piece = 0; piece < 20_000 && order.length === 0; piece++) {
      await inProcess()
      await nextTurn()
    }
    order.push('job done')
    await request
    expect(order).toEqual(['request 200', 'job done'])
  })

  it('is needed: a loop of in-process awaits alone holds a request until it ends (why jobs pace)', async () => {
    const order: string[] = []
    const request = call('/v1/health').then(async (r) => {
      await r.text()
      order.push(`request ${r.status}`)
    })
    for (let piece = 0; piece < 20_000; piece++) await inProcess()
    order.push('job done')
    await request
    expect(order).toEqual(['job done', 'request 200'])
  })
})

describe('workLane', () => {
  it('runs pieces one at a time in the order given, a turn between them, and hands back what each returns', async () => {
    const inLane = workLane()
    const order: string[] = []
    const pieces = ['a', 'b', 'c'].map((name) =>
      inLane(() => {
        order.push(name)
        setTimeout(() => order.push(`timer after ${name}`), 0) // waits on the event loop
        return Promise.resolve(name.toUpperCase())
      })
    )
    expect(await Promise.all(pieces)).toEqual(['A', 'B', 'C'])
    expect(order.slice(0, 4)).toEqual(['a', 'timer after a', 'b', 'timer after b'])
  })

  it('a piece that throws rejects its own promise and leaves the lane open', async () => {
    const inLane = workLane()
    const failed = inLane(() => {
      throw new Error('bad stock')
    })
    await expect(failed).rejects.toThrow('bad stock')
    expect(await inLane(() => 'next')).toBe('next')
  })
})

describe('pacedContext', () => {
  it('hands back the upstream answer unchanged, after a turn', async () => {
    const order: string[] = []
    const ctx = pacedContext({ fetch: async () => new Response('page 1'), timeoutMs: 1000 })
    setTimeout(() => order.push('timer'), 0)
    const res = await ctx.fetch('https://push2.eastmoney.com/api/qt/clist/get')
    order.push('answer')
    expect(await res.text()).toBe('page 1')
    expect(order).toEqual(['timer', 'answer'])
    expect(ctx.timeoutMs).toBe(1000)
  })
})
