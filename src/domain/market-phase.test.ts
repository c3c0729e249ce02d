import { describe, expect, it } from 'vitest'
import { latestSession, lineStatus, marketPhase } from './market-phase'

const at = (iso: string) => Date.parse(`${iso}+08:00`)

describe('market phase', () => {
  it('follows a trading day from the night to the close', () => {
    // 2026-11-20 is a Friday and a trading day.
    const day = (hhmm: string) => marketPhase(at(`2026-11-20T${hhmm}:00`))
    expect(['02:00', '09:05', '09:15', '09:24', '09:25', '09:30', '11:29', '11:30', '12:59', '13:00', '14:59', '15:00', '23:00'].map(day)).toEqual([
      'preopen', 'preopen', 'auction', 'auction', 'opening', 'continuous', 'continuous', 'lunch', 'lunch', 'continuous', 'continuous', 'closed', 'closed',
    ])
  })

  it('is closed all day on weekends and holidays', () => {
    expect(marketPhase(at('2026-11-21T10:30:00'))).toBe('closed')
    expect(marketPhase(at('2026-10-05T10:30:00'))).toBe('closed')
  })

  it('dates market views to the latest session that has traded', () => {
    expect(latestSession(at('2026-11-20T02:00:00'))).toBe('2026-11-19')
    expect(latestSession(at('2026-11-20T09:24:00'))).toBe('2026-11-19')
    expect(latestSession(at('2026-11-20T09:25:00'))).toBe('2026-11-20')
    expect(latestSession(at('2026-11-21T10:00:00'))).toBe('2026-11-20')
    // The National Day week: the last session is 2026-09-30.
    expect(latestSession(at('2026-10-06T10:00:00'))).toBe('2026-09-30')
  })
})

describe('line status', () => {
  const today = { halted: false, traded: true, date: '2026-11-20' }
  it('is trading only in session on a line with today\'s trades', () => {
    expect(lineStatus(today, false, at('2026-11-20T10:30:00'))).toBe('trading')
    expect(lineStatus(today, false, at('2026-11-20T09:27:00'))).toBe('trading')
    expect(lineStatus(today, false, at('2026-11-20T12:00:00'))).toBe('closed')
    expect(lineStatus(today, false, at('2026-11-20T15:30:00'))).toBe('closed')
    expect(lineStatus({ ...today, date: '2026-11-19' }, false, at('2026-11-20T02:00:00'))).toBe('closed')
  })

  it('says halted for a suspension only, and auction for the auction\'s line', () => {
    expect(lineStatus({ halted: true, traded: false, date: '2026-11-20' }, false, at('2026-11-20T10:30:00'))).toBe('halted')
    expect(lineStatus({ halted: false, traded: false, date: '2026-11-20' }, true, at('2026-11-20T09:20:00'))).toBe('auction')
    // Re-stamped before the auction, no trade yet: not halted.
    expect(lineStatus({ halted: false, traded: false, date: '2026-11-20' }, false, at('2026-11-20T09:05:00'))).toBe('closed')
  })
})
