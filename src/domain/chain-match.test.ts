import { describe, expect, it } from 'vitest'
import { describeRule, keywordShare, matchRule, type MatchInput } from './chain-match'

const input: MatchInput = {
  industries: new Map([['电池', ['sz300750', 'sz000001']]]),
  concepts: new Map([['储能', ['sz300750', 'sh600001']]]),
  compositions: new Map([
    ['sz300750', { reportDate: '2025-12-31', products: [{ name: '动力电池系统', ratio: 0.7 }, { name: '储能电池系统', ratio: 0.2 }, { name: '其他业务', ratio: 0.1 }] }],
    ['sh600001', { reportDate: '2025-12-31', products: [{ name: '储能变流器', ratio: 1 }] }],
    ['sz000002', { reportDate: '2025-12-31', products: [{ name: '储能电池', ratio: 0.25 }, { name: '光伏组件', ratio: 0.75 }] }],
    ['sz000003', null],
  ]),
}

describe('chain rule matching', () => {
  it('boards alone: every member, relevance unknown', () => {
    expect(matchRule({ industries: ['电池'], concepts: ['储能'], keywords: [] }, input)).toEqual([
      { code: 'sh600001', relevance: null, via: 'board:储能' },
      { code: 'sz000001', relevance: null, via: 'board:电池' },
      { code: 'sz300750', relevance: null, via: 'board:电池' },
    ])
  })

  it('boards and keywords: the members whose composition names a keyword, relevance its revenue share', () => {
    expect(matchRule({ industries: [], concepts: ['储能'], keywords: ['储能电池'] }, input)).toEqual([{ code: 'sz300750', relevance: 0.2, via: 'keyword:储能电池' }])
  })

  it('keywords alone: every held composition naming one, most relevant first; shares of several lines add up', () => {
    expect(matchRule({ industries: [], concepts: [], keywords: ['储能', '动力电池'] }, input)).toEqual([
      { code: 'sh600001', relevance: 1, via: 'keyword:储能' },
      { code: 'sz300750', relevance: 0.9, via: 'keyword:动力电池' },
      { code: 'sz000002', relevance: 0.25, via: 'keyword:储能' },
    ])
  })

  it('a board the upstream did not list selects nothing', () => {
    expect(matchRule({ industries: [], concepts: ['不存在'], keywords: ['储能'] }, input)).toEqual([])
    expect(keywordShare({ reportDate: '2025-12-31', products: [{ name: '其他', ratio: 1 }] }, ['储能'])).toBeNull()
  })

  it('describes the rule it used', () => {
    expect(describeRule({ industries: ['电池'], concepts: ['储能'], keywords: ['储能电池', '储能系统'] })).toBe('(industry boards 电池 ∪ concept boards 储能) ∩ main business naming 储能电池|储能系统')
    expect(describeRule({ industries: [], concepts: [], keywords: ['光伏'] })).toBe('main business naming 光伏')
  })
})
