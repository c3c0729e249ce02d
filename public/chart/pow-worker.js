// The Web Worker that solves a proof-of-work challenge off the page's main thread, so the chart
// stays responsive while it hashes. Message in: {challenge, difficulty}; out: {header, hashes}.
import { solvePow } from './pow.js'

self.onmessage = async (e) => {
  self.postMessage(await solvePow(e.data.challenge, e.data.difficulty))
}
