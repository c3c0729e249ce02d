/**
 * The timings of push quotes (`GET /v1/stream`, docs/architecture.md "Push quotes"), in real
 * milliseconds. Production keeps the defaults; the emulator's `PUT /__emulator/stream` shortens
 * them so that a test sees several cadences in a second (the market's clock stays the emulator's).
 */
export interface StreamTuning {
  /** Poll interval of a shard while its market is in session; null = the source's cadence (3 s). */
  cadenceMs: number | null
  /** A heartbeat event every this long on every connection. */
  heartbeatMs: number
  /** The relay refreshes its connection lease, records the started minute and re-reads the key this often. */
  recheckMs: number
  /** An SSE connection with more than this many bytes written but not yet taken by the client is dropped. */
  slowBytes: number
  /**
   * A WebSocket client acknowledges each heartbeat (`{"ack":seq}`); about to send heartbeat n, the
   * relay drops a client whose last acknowledgement is older than heartbeat n − ackWindow. Its unread
   * data is then at most what ackWindow + 1 heartbeat intervals carry (docs/access.md "Streams").
   */
  ackWindow: number
  /**
   * Outside sessions a shard's one alarm waits for the next phase change; with this set it looks
   * again at least this often (the emulator's clock jumps; production leaves it null).
   */
  phaseCheckMs: number | null
}

export const STREAM_DEFAULTS: Readonly<StreamTuning> = {
  cadenceMs: null,
  heartbeatMs: 20_000,
  recheckMs: 60_000,
  slowBytes: 256 * 1024,
  ackWindow: 2,
  phaseCheckMs: null,
}

/** The isolate's timings (the emulator may change them). */
export const streamTuning: StreamTuning = { ...STREAM_DEFAULTS }
