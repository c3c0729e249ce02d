/**
 * Set-up of every Node test file: the threads keep their modules between files (vitest.config.ts),
 * so what the emulator's control module holds is put back as a new module would have it before the
 * file's first test: no faults, no hangs, the real clock, request counters at zero; and the real
 * timers, should a file have left fake ones.
 */
import { beforeAll, vi } from 'vitest'
import { resetEmulator } from '../src/emulator/control'
import { clearHangs } from '../src/emulator/hang'

beforeAll(() => {
  vi.useRealTimers()
  resetEmulator()
  clearHangs()
})
