import assert from 'node:assert/strict'
import { test } from 'node:test'
import { runPlaybookBacktest } from './backfill-run.mjs'

/** A fake POST answering `answers` in turn, recording the paths called. */
function fake(answers) {
  const paths = []
  return { paths, post: async (path) => (paths.push(path), answers.shift()) }
}

test('runPlaybookBacktest calls the job until it is done and prints the compute time', async () => {
  const { paths, post } = fake([
    { status: 'partial', chunks: { done: 6, total: 13 } },
    { status: 'partial', chunks: { done: 12, total: 13 } },
    { status: 'done', through: '2026-11-20', with_history: 1250, compute_ms: 61_000, chunks: { done: 13, total: 13 } },
  ])
  const notes = []
  await runPlaybookBacktest(post, (m) => notes.push(m))
  assert.deepEqual(paths, ['/__jobs/playbooks', '/__jobs/playbooks', '/__jobs/playbooks'])
  assert.equal(notes[0], 'playbook backtest: 6 of 13 chunks')
  assert.match(notes.at(-1), /^playbook backtest of 1250 stocks through 2026-11-20: 1:01 of compute/)
})

test('runPlaybookBacktest stops on a failed or skipped run and says the cron retries', async () => {
  const notes = []
  await runPlaybookBacktest(fake([{ status: 'error', error: 'no bars of the benchmark' }]).post, (m) => notes.push(m))
  assert.deepEqual(notes, ['playbook backtest error: no bars of the benchmark (the evening cron retries)'])
  const skipped = []
  await runPlaybookBacktest(fake([{ status: 'done', noop: true, through: '2026-11-20' }]).post, (m) => skipped.push(m))
  assert.deepEqual(skipped, ['playbook backtest: the evidence of 2026-11-20 is computed'])
})
