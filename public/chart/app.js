// The chart page: wires the controls to /v1/kline and draws candles with MA5/10/20, a volume pane
// and a MACD pane with the pinned lightweight-charts (served from this origin). The code and the
// period live in the URL (`?code=…&period=…`); the key lives in sessionStorage only.
import { CandlestickSeries, createChart, HistogramSeries, LineSeries } from './assets/lightweight-charts.standalone.production.mjs'
import { loadKline, proofStore } from './api.js'
import { chartData, COLORS, MA_WINDOWS, MINUTE_PERIODS, PERIODS } from './bars.js'
import { followLive } from './live.js'

const KEY_STORE = 'chart.key'
const DEFAULT_CODE = 'sh600519'

const $ = (id) => document.getElementById(id)
const status = $('status')
const codeInput = $('code')
const keyInput = $('key-input')
const proofs = proofStore(sessionStorage, () => Date.now())

/** The page's state, mirrored in the URL. */
const params = new URLSearchParams(location.search)
const state = {
  code: (params.get('code') ?? '').trim() || DEFAULT_CODE,
  period: PERIODS.includes(params.get('period')) ? params.get('period') : 'day',
}

const chart = createChart($('chart'), {
  autoSize: true,
  // TradingView's attribution is the page's footer (NOTICE text, link, licence): the logo would
  // inject an inline <style>, which the page's Content-Security-Policy refuses.
  layout: { attributionLogo: false, textColor: '#1f2328', background: { color: '#ffffff' }, panes: { separatorColor: '#d0d7de' } },
  grid: { vertLines: { color: '#f0f2f4' }, horzLines: { color: '#f0f2f4' } },
  rightPriceScale: { borderColor: '#d0d7de' },
  timeScale: { borderColor: '#d0d7de' },
})
const quiet = { priceLineVisible: false, lastValueVisible: false, crosshairMarkerVisible: false }
const candles = chart.addSeries(CandlestickSeries, {
  upColor: COLORS.up, downColor: COLORS.down, wickUpColor: COLORS.up, wickDownColor: COLORS.down, borderVisible: false,
}, 0)
const maLines = Object.fromEntries(MA_WINDOWS.map((n) => [n, chart.addSeries(LineSeries, { ...quiet, color: COLORS.ma[n], lineWidth: 1 }, 0)]))
const volume = chart.addSeries(HistogramSeries, { priceFormat: { type: 'volume' }, priceLineVisible: false }, 1)
// The axis reads to 2 decimals; the legend shows the 4 of /v1/technical.
const macdScale = { type: 'price', precision: 2, minMove: 0.01 }
const macdBar = chart.addSeries(HistogramSeries, { ...quiet, priceFormat: macdScale }, 2)
const dif = chart.addSeries(LineSeries, { ...quiet, color: COLORS.dif, lineWidth: 1, priceFormat: macdScale }, 2)
const dea = chart.addSeries(LineSeries, { ...quiet, color: COLORS.dea, lineWidth: 1, priceFormat: macdScale }, 2)
const PANES = ['price', 'volume', 'macd']
chart.panes().forEach((pane, i) => pane.setStretchFactor([3, 1, 1.4][i]))
/** Names the panes' elements (for the browser test, and anyone reading the DOM); they exist once drawn. */
const namePanes = () => chart.panes().forEach((pane, i) => pane.getHTMLElement()?.setAttribute('data-pane', PANES[i]))
/** Resolves once the chart has painted what it was just given. */
const painted = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))

/** The legend: the values under the crosshair (or of the last bar). */
const legend = $('legend')
function showLegend(values) {
  legend.replaceChildren()
  const item = (text, color) => {
    const span = document.createElement('span')
    span.textContent = text + '  '
    if (color) span.style.color = color
    legend.append(span)
  }
  const fmt = (v, places) => (v === undefined ? '–' : v.toFixed(places))
  for (const n of MA_WINDOWS) item(`MA${n} ${fmt(values.ma[n], 2)}`, COLORS.ma[n])
  item(`DIF ${fmt(values.dif, 4)}`, COLORS.dif)
  item(`DEA ${fmt(values.dea, 4)}`, COLORS.dea)
  item(`MACD ${fmt(values.bar, 4)}`)
}
const valueOf = (data, series) => data.get(series)?.value
let lastValues = { ma: {} }
chart.subscribeCrosshairMove((p) => {
  if (!p.time) return showLegend(lastValues)
  showLegend({
    ma: Object.fromEntries(MA_WINDOWS.map((n) => [n, valueOf(p.seriesData, maLines[n])])),
    dif: valueOf(p.seriesData, dif),
    dea: valueOf(p.seriesData, dea),
    bar: valueOf(p.seriesData, macdBar),
  })
})

/** Runs the page's proof-of-work in a Web Worker: the main thread (and the chart) stays free. */
function solveInWorker(challenge) {
  return new Promise((resolve, reject) => {
    const worker = new Worker('/chart/pow-worker.js', { type: 'module' })
    worker.onmessage = (e) => {
      worker.terminate()
      resolve(e.data)
    }
    worker.onerror = (e) => {
      worker.terminate()
      reject(new Error(e.message || 'the proof-of-work worker failed'))
    }
    worker.postMessage({ challenge: challenge.challenge, difficulty: challenge.difficulty })
  })
}

let solvedNote = ''
const caller = {
  fetch: (path, init) => fetch(path, init),
  key: () => sessionStorage.getItem(KEY_STORE),
  proof: () => proofs.get(),
  async solve(challenge) {
    say(`Anonymous limit reached. Solving a proof-of-work (${challenge.difficulty} bits, about ${Math.round(2 ** challenge.difficulty).toLocaleString('en')} hashes) in a Web Worker: it raises this browser's allowance to ${challenge.raises_to_per_minute} calls a minute for ${Math.round(challenge.expires_in / 60)} minutes. No key, no account.`)
    const started = performance.now()
    const { header, hashes } = await solveInWorker(challenge)
    proofs.set(header, challenge.expires_in)
    solvedNote = `Proof-of-work solved in ${Math.round(performance.now() - started)} ms (${hashes.toLocaleString('en')} hashes); sent as X-PoW with each call.`
  },
}

function say(text, error = false) {
  status.textContent = text
  document.body.dataset.state = error ? 'error' : 'loading'
}

/** Keeps the controls and the URL in step with the state. */
function reflect() {
  codeInput.value = state.code
  for (const b of document.querySelectorAll('#periods button')) b.setAttribute('aria-pressed', String(b.dataset.period === state.period))
  const url = new URL(location.href)
  url.search = new URLSearchParams({ code: state.code, period: state.period }).toString()
  history.replaceState(null, '', url)
  const key = sessionStorage.getItem(KEY_STORE)
  keyInput.value = ''
  keyInput.placeholder = key ? `key …${key.slice(-4)}` : 'anonymous'
}

/** Stops the live candle of the chart shown, if any. */
let stopLive = () => {}

/**
 * With a key, a day chart follows GET /v1/stream: each `quote` event redraws the last candle and its
 * volume bar (the indicators stay as loaded); `status` says whether the market is moving.
 */
function live(code, lastDate, baseLine) {
  const key = sessionStorage.getItem(KEY_STORE)
  if (!key) return
  let phase = ''
  stopLive = followLive(code, key, ({ event, data }) => {
    if (event === 'quote' && data.date >= lastDate) {
      const bar = { time: data.date, open: Number(data.open), high: Number(data.high), low: Number(data.low), close: Number(data.last) }
      candles.update(bar)
      volume.update({ time: data.date, value: Number(data.volume), color: bar.close >= bar.open ? COLORS.up : COLORS.down })
      status.textContent = `${baseLine} Live: ${data.last} at ${data.as_of}${phase ? ` (${phase})` : ''}.`
      document.body.dataset.live = data.as_of
    } else if (event === 'status') {
      phase = data.phase === 'closed' || data.phase === 'lunch' ? `market ${data.phase} until ${data.next_change.slice(0, 16).replace('T', ' ')}` : `market in ${data.phase}`
    } else if (event === 'error') {
      status.textContent = `${baseLine} Live updates stopped: ${data.error} (${data.code}).`
    }
  })
}

let drawn = 0
/** Loads and draws the state's bars; an answer that arrives after a newer request is dropped. */
async function show() {
  stopLive()
  reflect()
  const ticket = ++drawn
  const { code, period } = state
  solvedNote = ''
  say(`Loading ${code} ${period}…`)
  let outcome
  try {
    outcome = await loadKline(code, period, caller)
  } catch (e) {
    outcome = { ok: false, message: String(e instanceof Error ? e.message : e) }
  }
  if (ticket !== drawn) return
  if (!outcome.ok) {
    say(`${code} ${period}: ${outcome.message}`, true)
    return
  }
  const body = outcome.body
  if (body.data.length === 0) {
    say(`${code} ${period}: no bars${body.notice ? ` (${body.notice})` : ''}`, true)
    return
  }
  const data = chartData(body.data)
  chart.applyOptions({ timeScale: { timeVisible: MINUTE_PERIODS.includes(period), secondsVisible: false } })
  candles.setData(data.candles)
  volume.setData(data.volume)
  for (const n of MA_WINDOWS) maLines[n].setData(data.ma[n])
  macdBar.setData(data.macd.bar)
  dif.setData(data.macd.dif)
  dea.setData(data.macd.dea)
  const bars = data.candles.length
  chart.timeScale().setVisibleLogicalRange({ from: Math.max(0, bars - 120), to: bars + 2 })
  const last = (points) => points.at(-1)?.value
  lastValues = { ma: Object.fromEntries(MA_WINDOWS.map((n) => [n, last(data.ma[n])])), dif: last(data.macd.dif), dea: last(data.macd.dea), bar: last(data.macd.bar) }
  showLegend(lastValues)
  await painted()
  if (ticket !== drawn) return
  namePanes()
  status.textContent = [`${code} ${period}: ${bars} bars to ${body.as_of ?? body.data[0].date}, source ${body.source}.`, body.notice ?? '', solvedNote].filter(Boolean).join(' ')
  document.body.dataset.state = 'ready'
  document.body.dataset.shown = `${code} ${period}`
  if (period === 'day') live(code, body.data[0].date, status.textContent)
}

$('symbol').addEventListener('submit', (e) => {
  e.preventDefault()
  const code = codeInput.value.trim()
  if (!code) return
  state.code = code
  show()
})
$('periods').addEventListener('click', (e) => {
  const period = e.target.closest('button')?.dataset.period
  if (!period || period === state.period) return
  state.period = period
  show()
})
// The key is never part of a URL: the form is handled here and never submitted.
$('key').addEventListener('submit', (e) => {
  e.preventDefault()
  const key = keyInput.value.trim()
  if (key) sessionStorage.setItem(KEY_STORE, key)
  show()
})
$('key-forget').addEventListener('click', () => {
  sessionStorage.removeItem(KEY_STORE)
  show()
})

show()
