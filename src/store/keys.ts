/**
 * The R2 layout of the history store, in one place. Everything the jobs write and the routes read
 * lives under these keys:
 *
 *   history/<code>.json              one stock's raw daily bars since 2016-08-08 + corporate actions
 *   market-kline/<date>.json         every stock's bar of one trading day, exactly as the endpoint sends `data`
 *   meta/manifest.json               what the store holds (latest complete day, universe size)
 *   meta/universe.json               the stock codes of the latest whole-market snapshot
 *   meta/runs/<job>-<date>.json      what each run of a job did on that date
 *   meta/cursors/<job>.json          where a resumable job continues
 *   meta/actions/<date>.json         the corporate actions with that ex-date, fetched once a day
 *   meta/turnover/<date>.json        every stock's turnover rate of that day (code → percent), from the same snapshot as its market-kline blob
 *   meta/backfill.json               the backfill in progress (range, universe, phase)
 *   staging/backfill/<run>/…         backfill's per-chunk rows until the day blobs are assembled
 *   technicals/<date>.json           every stock's technical columns and day factors of one date (point in time)
 *   technicals/<date>.states/…       every stock's indicator state after that date, in shards by code (the next session's live rows step from it)
 *   technicals/<date>.state.txt      the same in one file, as dates written before the shards have it
 *   technicals/<date>.on-demand.json the rows of a day without a table, as /v1/technical-batch computed them from the histories
 *   staging/market-day/<date>/…      the after-close job's stock-day rows until the day's tables are assembled
 *   factors/<market>/<date>.json     the screening factors of every stock of a market on one date (columns)
 *   meta/factors-<market>.json       the latest date with a factor table for the market
 *   playbooks/evidence.json          every playbook's backtest evidence (the backtest job)
 *   staging/playbooks/…              the backtest's benchmark bars and per-chunk figures until it finishes
 */

/** R2 key of a stock's history (`code` canonical, e.g. `sh600519`). */
export const historyKey = (code: string) => `history/${code}.json`

/** R2 key of the whole-market blob of one trading day. */
export const marketKlineKey = (date: string) => `market-kline/${date}.json`

export const MANIFEST_KEY = 'meta/manifest.json'
export const UNIVERSE_KEY = 'meta/universe.json'
export const BACKFILL_KEY = 'meta/backfill.json'

/** R2 key of the run record of `job` on `date` (Beijing). */
export const runKey = (job: string, date: string) => `meta/runs/${job}-${date}.json`

/** R2 key of the cursor of a resumable job. */
export const cursorKey = (job: string) => `meta/cursors/${job}.json`

/** R2 key of the corporate actions that go ex on `date`. */
export const actionsKey = (date: string) => `meta/actions/${date}.json`

/**
 * R2 key of the day's turnover rates by code, written with the day's market-kline blob: the blob's
 * 8 columns are the /v1/market-kline contract, so the rate the history store needs rides beside it.
 */
export const turnoverKey = (date: string) => `meta/turnover/${date}.json`

/** Prefix of everything one backfill run stages. */
export const stagingPrefix = (run: string) => `staging/backfill/${run}/`

/** Rows of chunk `index` for the trading days of `month` (`YYYY-MM`). */
export const stagingRowsKey = (run: string, month: string, index: number) => `${stagingPrefix(run)}months/${month}/${String(index).padStart(5, '0')}.txt`

/** Written last by a chunk: its presence means the chunk is complete. */
export const stagingDoneKey = (run: string, index: number) => `${stagingPrefix(run)}chunks/${String(index).padStart(5, '0')}.json`

/** R2 key of the factor table of `market` (`hs`, `hk`, `us`) on `date`. */
export const factorTableKey = (market: string, date: string) => `factors/${market}/${date}.json`

/** R2 key of the pointer to a market's latest factor table. */
export const latestFactorsKey = (market: string) => `meta/factors-${market}.json`

/** R2 key of the technicals table of one trading day. */
export const technicalsKey = (date: string) => `technicals/${date}.json`

/** R2 key of the rows of a day without a table that /v1/technical-batch computed on demand (src/jobs/technicals-on-demand.ts). */
export const technicalsOnDemandKey = (date: string) => `technicals/${date}.on-demand.json`

/** R2 key of the indicator states after one trading day in one file, as written before the shards (src/store/technicals-state.ts). */
export const technicalsStateKey = (date: string) => `technicals/${date}.state.txt`

/** Prefix of the shards of the indicator states after one trading day (src/store/state-shards.ts). */
export const statesPrefix = (date: string) => `technicals/${date}.states/`

/** R2 key of the index of a day's state shards: written last, it names the shards of the set. */
export const statesIndexKey = (date: string) => `${statesPrefix(date)}index.json`

/** R2 key of shard `n` of the set `gen` (each write of a day is a new set; the index names the current one). */
export const statesShardKey = (date: string, gen: string, n: number) => `${statesPrefix(date)}${gen}-${String(n).padStart(3, '0')}.txt`

/** Prefix of the after-close job's staged stock-day rows of `date`. */
export const dayRowsPrefix = (date: string) => `staging/market-day/${date}/`

/** Chunk `index`'s point-in-time stock-day rows of one table day. */
export const stagingDayRowsKey = (run: string, date: string, index: number) => `${stagingPrefix(run)}days/${date}/${String(index).padStart(5, '0')}.txt`

/** R2 key of the pointer to the latest technicals table. */
export const LATEST_TECHNICALS_KEY = 'meta/technicals-latest.json'

/** The playbook backtest's evidence (src/jobs/playbook-backtest.ts), read by /v1/playbooks. */
export const PLAYBOOK_EVIDENCE_KEY = 'playbooks/evidence.json'

/** Prefix of what one backtest run stages (the benchmark's bars and each chunk's partial figures). */
export const PLAYBOOK_STAGING_PREFIX = 'staging/playbooks/'
