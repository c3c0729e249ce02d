import { beijing } from '../../domain/dates'
import { easternOffsetMinutes } from '../../domain/instant'
import type { Instrument } from '../../domain/instrument'

/**
 * Wall-clock date (`YYYY-MM-DD`) and time (`HH:MM:SS`) of a Unix-seconds stamp where the
 * instrument trades: US Eastern for US listings and indexes, Beijing for everything else
 * (HK shares Beijing's UTC+8).
 */
export function exchangeClock(inst: Instrument, unixSeconds: number): { date: string; time: string } {
  const ms = unixSeconds * 1000
  if (inst.prefix !== 'us') {
    const { date, time } = beijing(ms)
    return { date, time }
  }
  const iso = new Date(ms + easternOffsetMinutes(ms) * 60_000).toISOString()
  return { date: iso.slice(0, 10), time: iso.slice(11, 19) }
}
