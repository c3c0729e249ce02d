import { describe, expect, it } from 'vitest'
import { compileExpression, compilePlaybook } from '../domain/backtest/engine'
import { PERIODS, PLAYBOOK_THEMES, playbookById, PLAYBOOKS } from './playbooks'

describe('playbooks', () => {
  it('are 13 in 12 themes, every theme used, ids unique', () => {
    expect(PLAYBOOKS).toHaveLength(13)
    expect(PLAYBOOK_THEMES).toHaveLength(12)
    expect(new Set(PLAYBOOKS.map((p) => p.theme))).toEqual(new Set(PLAYBOOK_THEMES))
    expect(new Set(PLAYBOOKS.map((p) => p.id)).size).toBe(13)
    expect(playbookById('ma-alignment')?.theme).toBe('trend-following')
  })

  it.each(PLAYBOOKS.map((p) => [p.id, p] as const))('%s: every expression parses over the backtest factors; entry = the signals together', (_id, p) => {
    expect(() => compilePlaybook(p)).not.toThrow()
    for (const s of p.signals) expect(() => compileExpression(p.id, s.name, s.expr)).not.toThrow()
    const exprs = p.signals.map((s) => s.expr)
    expect(p.stages.entry.expr).toBe(exprs.length === 1 ? exprs[0] : `intersect([${exprs.join(', ')}])`)
    expect(p.periods).toEqual(PERIODS)
    expect(p.stages.exit.max_days).toBe(Math.max(...PERIODS))
    if (p.stages.exit.stop_loss_pct !== null) expect(p.stages.exit.stop_loss_pct).toBeLessThan(0)
    if (p.stages.exit.take_profit_pct !== null) expect(p.stages.exit.take_profit_pct).toBeGreaterThan(0)
  })

  it('refuses what a per-stock backtest cannot run: ranks across stocks, statement factors', () => {
    expect(() => compileExpression('x', 'entry', 'top(Change20D, 10)')).toThrow(/top\(\) and bottom\(\)/)
    expect(() => compileExpression('x', 'entry', 'intersect([ChangePCT > 0, bottom(FloatMV, 5)])')).toThrow(/top\(\) and bottom\(\)/)
    expect(() => compileExpression('x', 'entry', 'PE_TTM < 10')).toThrow(/playbook x entry: at position 0/)
  })
})
