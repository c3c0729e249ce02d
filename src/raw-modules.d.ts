/** Vite's `?raw` imports (tests read README.md and the docs/ pages this way to check their tables against the code). */
declare module '*.md?raw' {
  const text: string
  export default text
}

/** wrangler.toml as text (a test checks its crons against src/jobs/index.ts). */
declare module '*.toml?raw' {
  const text: string
  export default text
}

/** Captured upstream answers under test/fixtures, read as text by the parser tests. */
declare module '*.json?raw' {
  const text: string
  export default text
}
/** swagger-ui-dist's files as text (test/docs.test.ts compares them with what /docs serves). */
declare module 'swagger-ui-dist/*?raw' {
  const text: string
  export default text
}

/** @hono/zod-openapi's module as text (src/openapi/no-generator.test.ts reads what it imports). */
declare module '*/@hono/zod-openapi/dist/index.mjs?raw' {
  const text: string
  export default text
}

/** Vite's `import.meta.glob`, in the one form tests use: every matching file's text. */
interface ImportMeta {
  glob(pattern: string, options: { query: '?raw'; import: 'default'; eager: true }): Record<string, string>
}
