/**
 * zod as this app uses it: wrangler.toml's [alias], vitest.config.ts and tsconfig.json's `paths`
 * resolve `zod` to this module. @hono/zod-openapi hands the `z` namespace whole to a function
 * (extendZodWithOpenApi), and a namespace that escapes keeps every export of it in the bundle: the
 * real one brings zod's 40 locales, its core namespace, the JSON Schema converters and every schema
 * kind, 350 KB of the minified production bundle (63 KB of its 309 KB gzip) that nothing here
 * calls. This `z` holds the schema builders the code calls; every type is zod's own. A builder not
 * listed here is a type error (tsc resolves `zod` here too): add it below when a route needs one.
 */
export type * from 'zod/v4'
export { array, boolean, coerce, discriminatedUnion, enum, iso, literal, null, number, object, record, string, tuple, union, unknown, ZodType } from 'zod/v4'
import * as z from './zod-lean'
export { z, z as default }
