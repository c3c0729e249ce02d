/**
 * zod as this app uses it: wrangler.toml's [alias], vitest.config.ts and tsconfig.json's `paths`
 * resolve `zod` to this module. @hono/zod-openapi hands the `z` namespace whole to a function
 * (extendZodWithOpenApi), and a namespace that escapes keeps every export of it in the bundle: the
 * real one brings zod's 40 locales, its core namespace, the JSON Schema converters and every schema
 * kind, 350 KB of the minified production bundle (63 KB of its 309 KB gzip) that nothing here
 * calls. This `z` holds the schema builders the code calls; every type is zod's own. A builder not
 * listed in src/zod-builders.ts is a type error (tsc resolves `zod` here too): add it there when a route
 * needs one.
 */
export * from './zod-builders'
import * as z from './zod-builders'
export { z, z as default }
