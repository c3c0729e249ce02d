/**
 * zod's types and the schema builders this app calls: the `z` namespace of src/zod-lean.ts (which says why the list is short).
 * ZodOptional: the MCP SDK's server imports it from `zod` (an instanceof test).
 */
export type * from 'zod/v4'
export { array, boolean, coerce, discriminatedUnion, enum, iso, literal, null, number, object, record, string, tuple, union, unknown, ZodOptional, ZodType } from 'zod/v4'
