// The chart's live last candle: GET /v1/stream as Server-Sent Events, read with fetch so that the
// key goes in the Authorization header (never in a URL, as everywhere on this page), yielding the
// stream's `quote` and `status` events to the page until stopped.

/** One SSE block's event, or null for a comment or a `retry:` line. */
export function parseEvent(block) {
  const event = /^event: (.*)$/m.exec(block)?.[1]
  const data = /^data: (.*)$/m.exec(block)?.[1]
  return event && data ? { event, data: JSON.parse(data) } : null
}

/**
 * Opens the stream of one code with `key` and calls `on(event)` for each event; returns `stop()`.
 * A refusal (a tier without streams, a connection limit) or an ended stream calls `on` with an
 * `error` event of its own, so the page can say why the candle stopped.
 */
export function followLive(code, key, on) {
  const abort = new AbortController()
  ;(async () => {
    const res = await fetch(`/v1/stream?codes=${encodeURIComponent(code)}`, { headers: { Accept: 'text/event-stream', Authorization: `Bearer ${key}` }, signal: abort.signal })
    if (res.status !== 200 || !res.body) {
      const body = await res.json().catch(() => ({}))
      on({ event: 'error', data: { code: body.code ?? String(res.status), error: body.error ?? body.detail?.[0]?.msg ?? `HTTP ${res.status}` } })
      return
    }
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader()
    let buffer = ''
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      buffer += value
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const ev = parseEvent(buffer.slice(0, end))
        buffer = buffer.slice(end + 2)
        if (ev) on(ev)
      }
    }
  })().catch((e) => {
    if (!abort.signal.aborted) on({ event: 'error', data: { code: 'NETWORK', error: String(e instanceof Error ? e.message : e) } })
  })
  return () => abort.abort()
}
