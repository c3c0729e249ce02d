/**
 * @asteasolutions/zod-to-openapi as the Worker uses it (wrangler.toml's [alias]; vitest.config.ts
 * for the tests in workerd): the registry the routes are recorded in and the `.openapi()` method of
 * zod schemas, which @hono/zod-openapi needs, without the document generator. The document is
 * generated before the bundle (src/cli/build-openapi.mjs, with the real package) and served from the
 * static assets, so the generator (about 6 KB of the gzip bundle) would be dead weight here.
 *
 * The import below names the package's file rather than the package, which the alias would turn
 * back into this module.
 */
// @ts-ignore: a path into the package has no types of its own (nothing typed imports this module:
// only the bundler reaches it, for @hono/zod-openapi; no-generator.test.ts checks the names)
export { OpenAPIRegistry, extendZodWithOpenApi, getOpenApiMetadata } from '../../node_modules/@asteasolutions/zod-to-openapi/dist/index.mjs'

/** Never constructed in the Worker: says where the document comes from if it ever is. */
class GeneratedBeforeTheBundle {
  constructor() {
    throw new Error('/openapi.json is generated before the bundle (src/cli/build-openapi.mjs) and served from the static assets')
  }
}
export const OpenApiGeneratorV3 = GeneratedBeforeTheBundle
export const OpenApiGeneratorV31 = GeneratedBeforeTheBundle
