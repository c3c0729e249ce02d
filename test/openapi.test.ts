import { exports } from 'cloudflare:workers'
import { beforeAll, describe, expect, it } from 'vitest'
import { getJson, resetWorld } from './helpers'

/** A value the parameter's schema must refuse, or null when any string is acceptable. */
function badValue(schema: any): string | null {
  if (schema.type === 'integer' || schema.type === 'number') return 'not-a-number'
  if (schema.enum) return 'definitely-not-allowed'
  if (schema.pattern) return 'x'
  return null
}

describe('/openapi.json', () => {
  // Calls carry a tier-unlimited key, so every documented parameter reaches validation.
  beforeAll(() => resetWorld())

  it('is OpenAPI 3.1 with version 0.1.0, operations carrying tier, cost and examples', async () => {
    const { status, body } = await getJson('/openapi.json')
    expect(status).toBe(200)
    expect(body.openapi).toBe('3.1.0')
    expect(body.info.version).toBe('0.1.0')
    // Generated before the bundle, it still names the host that served it (src/openapi/route.ts).
    expect(body.servers).toEqual([{ url: 'http://127.0.0.1:8787', description: 'This service' }])
    for (const path of Object.keys(body.paths)) {
      const op = body.paths[path].get ?? body.paths[path].post
      expect(op['x-min-tier']).toMatch(/^(free|trial|standard|pro|unlimited)$/)
      expect(typeof op['x-cost']).toBe('number')
      expect(op.description.length).toBeGreaterThan(20)
      // JSON, or the event stream of GET /v1/stream.
      const ok = op.responses['200'].content['application/json'] ?? op.responses['200'].content['text/event-stream']
      expect(ok.schema).toBeTruthy()
    }
  })

  it('names whichever host it was asked at, each in turn', async () => {
    const worker = (exports as unknown as { default: { fetch(r: Request): Promise<Response> } }).default
    const serversAt = async (origin: string) => ((await (await worker.fetch(new Request(`${origin}/openapi.json`))).json()) as any).servers
    expect(await serversAt('https://api.example.com')).toEqual([{ url: 'https://api.example.com', description: 'This service' }])
    expect(await serversAt('http://127.0.0.1:8787')).toEqual([{ url: 'http://127.0.0.1:8787', description: 'This service' }])
    expect(await serversAt('https://api.example.com')).toEqual([{ url: 'https://api.example.com', description: 'This service' }])
  })

  it('enforces every documented query parameter: a wrong value gets 422 naming it', async () => {
    const { body } = await getJson('/openapi.json')
    let checked = 0
    for (const [path, item] of Object.entries<any>(body.paths)) {
      const op = item.get
      if (!op?.parameters) continue
      const valid: Record<string, string> = {}
      for (const p of op.parameters) if (p.required) valid[p.name] = String(p.example ?? p.schema?.example ?? 'sh600519')
      for (const p of op.parameters) {
        const bad = badValue(p.schema ?? {})
        if (bad !== null) {
          const qs = new URLSearchParams({ ...valid, [p.name]: bad })
          const r = await getJson(`${path}?${qs}`)
          expect(r.status, `${path} ${p.name}=${bad}`).toBe(422)
          expect(r.body.detail.map((d: any) => d.loc[1])).toContain(p.name)
          checked++
        }
        if (p.required) {
          const rest = { ...valid }
          delete rest[p.name]
          const r = await getJson(`${path}?${new URLSearchParams(rest)}`)
          expect(r.status, `${path} without ${p.name}`).toBe(422)
          expect(r.body.detail[0]).toMatchObject({ type: 'missing', loc: ['query', p.name] })
          checked++
        }
      }
    }
    expect(checked).toBeGreaterThanOrEqual(6)
  })
})
