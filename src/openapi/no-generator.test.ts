// The Worker's zod-to-openapi (wrangler.toml's [alias]) against what @hono/zod-openapi takes from the
// real package: every name it imports is there, the registry is the package's own, and the
// generators refuse with the reason.
import honoSource from '../../node_modules/@hono/zod-openapi/dist/index.mjs?raw'
import { describe, expect, it } from 'vitest'
import * as lean from './no-generator'

/** The names @hono/zod-openapi's ES module imports from @asteasolutions/zod-to-openapi. */
function namesHonoImports(): string[] {
  const m = /import \{([^}]*)\} from "@asteasolutions\/zod-to-openapi"/.exec(honoSource)
  if (!m) throw new Error('@hono/zod-openapi no longer imports zod-to-openapi by name: check src/openapi/no-generator.ts')
  return m[1].split(',').map((s) => s.trim()).filter(Boolean)
}

describe("the Worker's zod-to-openapi", () => {
  it('exports every name @hono/zod-openapi imports', () => {
    const names = namesHonoImports()
    expect(names).toContain('OpenAPIRegistry')
    for (const name of names) expect(typeof (lean as Record<string, unknown>)[name], name).toBe('function')
  })

  it('records definitions in a working registry', () => {
    const registry = new lean.OpenAPIRegistry()
    registry.registerComponent('securitySchemes', 'bearerAuth', { type: 'http', scheme: 'bearer' })
    expect(registry.definitions).toHaveLength(1)
  })

  it('refuses to generate a document, naming where the document comes from', () => {
    expect(() => new lean.OpenApiGeneratorV31()).toThrow(/build-openapi\.mjs/)
    expect(() => new lean.OpenApiGeneratorV3()).toThrow(/build-openapi\.mjs/)
  })
})
