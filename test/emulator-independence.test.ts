import { describe, expect, it } from 'vitest'

/**
 * The emulator is the independent check on our parsers: it writes upstream bytes from its own
 * market model, so it must never import the client side (`src/channels/`). Shared pure helpers
 * live in `src/domain/` or `src/data/`. This reads every emulator source (tests included) as text.
 */
const SOURCES = import.meta.glob('/src/emulator/**/*.ts', { query: '?raw', import: 'default', eager: true })

/** Every module specifier a source names: static and type imports, re-exports, dynamic imports. */
function specifiers(source: string): string[] {
  const found: string[] = []
  for (const m of source.matchAll(/(?:^|[\s;])(?:import|export)\b[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g)) found.push(m[1])
  for (const m of source.matchAll(/(?:^|[\s;])import\s*['"]([^'"]+)['"]/g)) found.push(m[1])
  for (const m of source.matchAll(/\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g)) found.push(m[1])
  return found
}

/** `/src/emulator/wire/x.ts` + `../../channels/y` → `/src/channels/y`. */
function resolvePath(file: string, specifier: string): string {
  if (!specifier.startsWith('.')) return specifier
  const parts = file.split('/').slice(0, -1)
  for (const part of specifier.split('/')) {
    if (part === '..') parts.pop()
    else if (part !== '.') parts.push(part)
  }
  return parts.join('/')
}

describe('the emulator stays independent of the channels', () => {
  it('reads the whole emulator', () => {
    expect(Object.keys(SOURCES).length).toBeGreaterThan(40)
    expect(Object.keys(SOURCES)).toContain('/src/emulator/wire/szse.ts')
  })

  it('finds every kind of import (the scanner itself)', () => {
    const sample = `import a from '../x'\nimport type { B } from "../../channels/types"\nexport { c } from './c'\nimport './side'\nconst d = await import('../../channels/e')`
    expect(specifiers(sample)).toEqual(['../x', '../../channels/types', './c', './side', '../../channels/e'])
    expect(resolvePath('/src/emulator/wire/szse.ts', '../../channels/szse/month-calendar')).toBe('/src/channels/szse/month-calendar')
  })

  it('has no file under src/emulator/ that imports src/channels/', () => {
    const offenders: string[] = []
    for (const [file, source] of Object.entries(SOURCES)) {
      for (const s of specifiers(source)) {
        const target = resolvePath(file, s)
        if (target === '/src/channels' || target.startsWith('/src/channels/') || /(^|\/)channels\//.test(s) && !s.startsWith('.')) offenders.push(`${file} imports ${s}`)
      }
    }
    expect(offenders).toEqual([])
  })
})
