import { describe, expect, it } from 'vitest'
import { ValidationError } from '../../http/validation'
import { isIssue, notThisMarket, oneCode, oneStockOrIssue } from './stock-code'

const messageOf = (f: () => unknown) => {
  try {
    f()
  } catch (e) {
    if (e instanceof ValidationError) return e.issues[0].msg
    throw e
  }
  return null
}

describe('the code of a one-stock endpoint', () => {
  it('refuses several codes and a code that is not one, in the same words for every endpoint', () => {
    expect(messageOf(() => oneCode('sh600519,sz000001'))).toMatch(/^one code per call/)
    const r = oneStockOrIssue('sh600519,sz000001', 'dividend')
    expect(isIssue(r) && r.msg).toMatch(/^one code per call; \/v1\/dividend serves/)
    const bad = oneStockOrIssue('zz123', 'dividend')
    expect(isIssue(bad) && bad.loc).toEqual(['query', 'code'])
  })

  it('refuses a kind the endpoint does not serve with a 422, or answers it empty with a notice', () => {
    const hk = oneStockOrIssue('hk00700', 'fund')
    expect(isIssue(hk) && hk.msg).toMatch(/hk00700 is a Hong Kong stock; \/v1\/fund serves A-share stock codes/)
    expect(oneCode('hk00700').code).toBe('hk00700')
    expect(notThisMarket('finance', oneCode('hk00700'))).toMatch(/finance covers A-share stocks/)
    expect(notThisMarket('finance', oneCode('sh600519'))).toBeUndefined()
  })
})
