#!/usr/bin/env node
// `npm run captures`: which upstream endpoints have a real captured answer, at which hours, and
// which have none (with what was searched). Reads src/channels/catalogue/*.json and checks that
// every fixture it names is on disk, so the figures cannot drift from the files.
import { readCatalogue, coverage, formatCoverage } from './captures-lib.mjs'

const catalogue = readCatalogue()
const report = coverage(catalogue)
process.stdout.write(formatCoverage(report))
if (report.problems.length) process.exitCode = 1
