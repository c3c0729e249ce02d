import { z as routesZod } from '@hono/zod-openapi'
import { describe, expect, it } from 'vitest'
import { z } from './zod-lean'

describe('the lean zod', () => {
  it('is the z the routes build their schemas with, extended for OpenAPI', () => {
    expect(routesZod).toBe(z)
    expect(typeof z.string().openapi).toBe('function')
  })

  it('explains a failed parse in English, as the 422 bodies do', () => {
    const result = z.object({ count: z.number().int().max(5) }).safeParse({ count: 7 })
    expect(result.success).toBe(false)
    expect(result.error?.issues[0].message).toBe('Too big: expected number to be <=5')
  })

  it('leaves out the namespaces nothing calls', () => {
    expect(Object.keys(z)).not.toContain('locales')
    expect(Object.keys(z)).not.toContain('core')
    expect(Object.keys(z)).not.toContain('toJSONSchema')
  })
})
