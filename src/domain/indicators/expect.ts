/** Assertions shared by the indicator tests (not used by the service). */
import { expect } from 'vitest'

/** `actual` equals `expected` to 1e-6, NaN (undefined) where `expected` is NaN. */
export function expectSeries(actual: Float64Array, expected: readonly number[]) {
  expect(actual.length).toBe(expected.length)
  expected.forEach((v, i) => {
    if (Number.isNaN(v)) expect(actual[i], `bar ${i}`).toBeNaN()
    else expect(Math.abs(actual[i] - v), `bar ${i}: ${actual[i]} vs ${v}`).toBeLessThan(1e-6)
  })
}

/** The last value equals `v` to 1e-6. */
export const expectLast = (actual: Float64Array, v: number) => expect(Math.abs(actual[actual.length - 1] - v), `${actual[actual.length - 1]} vs ${v}`).toBeLessThan(1e-6)
