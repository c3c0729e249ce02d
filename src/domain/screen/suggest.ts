/** Levenshtein distance, case-insensitive (factor names are typed by hand and misspelt). */
export function editDistance(a: string, b: string): number {
  const s = a.toLowerCase()
  const t = b.toLowerCase()
  let prev = Array.from({ length: t.length + 1 }, (_, j) => j)
  for (let i = 1; i <= s.length; i++) {
    const cur = [i]
    for (let j = 1; j <= t.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (s[i - 1] === t[j - 1] ? 0 : 1))
    }
    prev = cur
  }
  return prev[t.length]
}

/**
 * The names closest to `word` (those at the least distance, at most `max`), when close enough to
 * be a likely misspelling: within a third of the word's length (at least 2 edits), or differing
 * only in case or underscores.
 */
export function nearest(word: string, names: Iterable<string>, max = 3): string[] {
  const squash = (s: string) => s.toLowerCase().replace(/_/g, '')
  const scored: Array<[string, number]> = []
  for (const name of names) {
    const d = squash(name) === squash(word) ? 0 : editDistance(word, name)
    if (d <= Math.max(2, Math.floor(word.length / 3))) scored.push([name, d])
  }
  const best = Math.min(...scored.map(([, d]) => d))
  return scored
    .filter(([, d]) => d === best)
    .sort((x, y) => x[0].localeCompare(y[0]))
    .slice(0, max)
    .map(([n]) => n)
}
