import { describe, expect, it } from 'vitest'
import { isTradingDay } from '../../domain/trading-calendar'
import { actionsOf } from './actions'
import { planDates, planStage } from './dividend-plans'
import { universe } from './universe'

const { list } = universe()
const actions = list.filter((i) => i.kind === 'stock').filter((_, k) => k % 211 === 0).flatMap((i) => actionsOf(i))

describe('dividend plan dates', () => {
  it('run plan → approval → implementation notice → record → ex, all on trading days', () => {
    expect(actions.length).toBeGreaterThan(20)
    for (const a of actions) {
      const d = planDates(a)
      expect(d.planNotice < d.approval && d.approval < d.implementationNotice && d.implementationNotice < d.record && d.record < d.ex, a.exDate).toBe(true)
      for (const day of [d.planNotice, d.approval, d.implementationNotice, d.record, d.ex]) expect(isTradingDay(day)).toBe(true)
      expect(d.pay).toBe(a.cash > 0 ? a.exDate : null)
    }
  })

  it('moves through its stages with the date', () => {
    const d = planDates({ exDate: '2025-06-26', cash: 27.673, bonus: 0 })
    expect(planStage(d, '2025-04-01')).toBeNull()
    expect(planStage(d, d.planNotice)).toBe('proposed')
    expect(planStage(d, d.approval)).toBe('approved')
    expect(planStage(d, d.implementationNotice)).toBe('implemented')
    expect(planStage(d, '2026-01-01')).toBe('implemented')
  })
})
