// The pure parts of `npm run backfill`: argument parsing, the progress line, durations.
import { parseArgs } from 'node:util'

export const HELP = `npm run backfill -- [--from YYYY-MM-DD] [--to YYYY-MM-DD] [options]

Builds the per-stock daily histories (history/<code>.json) and the whole-market day blobs
(market-kline/<date>.json) for [from, to] on a running server (npm start), from its upstreams
(the emulator locally). Rerun it to resume where it stopped.

  --from DATE        first day of the day blobs (default: about a month before --to)
  --to DATE          last day (default: the latest trading day before today, Beijing)
  --url URL          the server (default http://127.0.0.1:$PORT, PORT defaulting to 8787)
  --token T          admin token for a deployed worker (default: $ADMIN_TOKEN)
  --parallel N       chunks in flight at once (default 1; more helps against live upstreams)
  --chunk-size N     stocks per chunk (default: the server's bound for the range)
  --restart          discard an unfinished backfill and start over
  -h, --help         this text`

/** A mistake in the command line; the message is for the user. */
export class UsageError extends Error {}

const DATE = /^\d{4}-\d{2}-\d{2}$/

/** Parses argv into options, or throws UsageError. */
export function parseCli(argv, environ = {}) {
  let v
  try {
    v = parseArgs({
      args: argv,
      options: {
        from: { type: 'string' },
        to: { type: 'string' },
        url: { type: 'string' },
        token: { type: 'string' },
        parallel: { type: 'string' },
        'chunk-size': { type: 'string' },
        restart: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }).values
  } catch (e) {
    throw new UsageError(e.message)
  }
  if (v.help) return { help: true }
  for (const f of ['from', 'to']) if (v[f] !== undefined && !DATE.test(v[f])) throw new UsageError(`--${f} must be a date YYYY-MM-DD, got '${v[f]}'`)
  const int = (name, raw, min, max) => {
    if (raw === undefined) return undefined
    const n = Number(raw)
    if (!Number.isInteger(n) || n < min || n > max) throw new UsageError(`--${name} must be an integer ${min}..${max}, got '${raw}'`)
    return n
  }
  const url = (v.url ?? `http://127.0.0.1:${environ.PORT || 8787}`).replace(/\/+$/, '')
  if (!/^https?:\/\//.test(url)) throw new UsageError(`--url must start with http:// or https://, got '${url}'`)
  return {
    help: false,
    from: v.from,
    to: v.to,
    url,
    token: v.token ?? environ.ADMIN_TOKEN ?? undefined,
    parallel: int('parallel', v.parallel, 1, 16) ?? 1,
    chunkSize: int('chunk-size', v['chunk-size'], 1, 100),
    restart: v.restart === true,
  }
}

/** `83` → `1:23`, `3725` → `1:02:05`. */
export function formatDuration(seconds) {
  if (!Number.isFinite(seconds) || seconds < 0) return '--:--'
  const s = Math.round(seconds)
  const h = Math.floor(s / 3600)
  const m = Math.floor((s % 3600) / 60)
  const ss = String(s % 60).padStart(2, '0')
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`
}

/**
 * One progress line: `label [#####·····]  12/56  21%  elapsed 0:42  ETA 2:31`. The ETA comes from
 * the rate of this session's work only (`doneHere` items in `elapsed` seconds).
 */
export function progressLine({ label, done, total, elapsed, doneHere, width = 30, extra = '' }) {
  const frac = total ? Math.min(1, done / total) : 1
  const full = Math.round(frac * width)
  const left = total - done
  const eta = doneHere > 0 ? (elapsed / doneHere) * left : NaN
  return (
    `${label} [${'#'.repeat(full)}${'·'.repeat(width - full)}] ${String(done).padStart(String(total).length)}/${total} ` +
    `${String(Math.floor(frac * 100)).padStart(3)}%  elapsed ${formatDuration(elapsed)}  ETA ${left === 0 ? '0:00' : formatDuration(eta)}${extra ? '  ' + extra : ''}`
  )
}
