// Loaded by vitest.config.ts, in the vitest process that runs the pool.
//
// workerd logs `exception = workerd/api/web-socket.c++:<line>: disconnected: WebSocket peer
// disconnected` each time a test file's runner closes its WebSocket to the pool: normal operation,
// not a failure (one line per test file). @cloudflare/vitest-pool-workers 0.15 forwards it (its own
// ignore list has the sibling `WebSocket was aborted`, not this one) and has no option to silence
// it, so exactly this line is dropped from stdout and stderr; everything else passes through.
const POOL_NOISE = /^exception = workerd\/api\/web-socket\.c\+\+:\d+: disconnected: WebSocket peer disconnected\r?\n?$/

for (const stream of [process.stdout, process.stderr]) {
  const write = stream.write.bind(stream)
  stream.write = (chunk, ...rest) => {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8')
    return POOL_NOISE.test(text) ? true : write(chunk, ...rest)
  }
}
