#!/usr/bin/env node
// `npm run captures`: which upstream endpoints have a real captured answer, at which hours, and
// which have none (with what was searched). Reads src/data/upstreams/*.json and checks that
// every fixture it names is on disk, so the figures cannot drift from the files. With --docs, it
// rewrites the coverage part of docs/upstreams.md (a test holds the page to the catalogue).
import { readCatalogue, coverage, formatCoverage, writeCoverage } from './captures-lib.mjs'

const catalogue = readCatalogue()
const report = coverage(catalogue)
process.stdout.write(formatCoverage(report))
if (process.argv.includes('--docs') && writeCoverage(report)) process.stdout.write('docs/upstreams.md: coverage rewritten\n')
if (report.problems.length) process.exitCode = 1
