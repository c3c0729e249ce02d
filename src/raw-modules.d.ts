/** Vite's `?raw` imports (tests read README.md this way to check its tables against the code). */
declare module '*.md?raw' {
  const text: string
  export default text
}
