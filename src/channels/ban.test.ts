import { describe, expect, it } from 'vitest'
import { isBanPage, isBanStatus, isEmptyBan } from './ban'

// Real data pages (test/fixtures/*/SOURCE.md): none may pass for a ban page.
const PAGES = import.meta.glob('/test/fixtures/{sina,hkex}/*.html', { query: '?raw', import: 'default', eager: true }) as Record<string, string>
const fixture = (path: string) => PAGES[`/test/fixtures/${path}`]

describe('ban detection', () => {
  it('reads 403, 429 and 456 as bans, other errors not', () => {
    expect([403, 429, 456].map(isBanStatus)).toEqual([true, true, true])
    expect([400, 404, 500, 502, 503].map(isBanStatus)).toEqual([false, false, false, false, false])
  })

  // Refusal bodies as recorded in docs/upstreams.md ("When a host bans").
  it.each([
    ["Sina's refusal line", 'Kinsoku jikou desu!'],
    ["Sina's block page", '<html><head><meta charset="utf-8"></head><body>你的 IP 存在异常访问(例如: 爬虫/攻击/探测 等), 已被新浪安全部门封禁.</body></html>'],
    ['a slider verification page', '\n<!DOCTYPE html><html><head><title>安全验证</title></head><body><div id="captcha"></div></body></html>'],
    ['a rate-limit page', '<html><body><h1>访问过于频繁，请稍后再试</h1></body></html>'],
  ])('reads %s as a ban', (_, body) => {
    expect(isBanPage(body)).toBe(true)
  })

  it.each([
    ['a Tencent quote line', 'v_sh600519="1~贵州茅台~600519~1520.00";'],
    ['an Eastmoney envelope', '{"rc":0,"rt":4,"data":{"klines":[]}}'],
    ["Eastmoney's refusal rc (a request it does not serve, not a ban)", '{"rc":102,"data":null}'],
    ['a JSONP answer naming a captcha field', 'jQuery1({"captcha":false,"data":[]})'],
    ["Sina's dividend page (a captured data page)", fixture('sina/sharebonus-sz300670-2021.html')],
    ["Sina's holders page (a captured data page)", fixture('sina/stockholder-sh600815-2014-06-30.html')],
    ["HKEX's CCASS result page", fixture('hkex/searchsdw-result.html')],
    ['nothing', ''],
  ])('does not read %s as a ban', (_, body) => {
    expect(isBanPage(body)).toBe(false)
  })

  it("reads Tencent's empty 200 as its throttle, and no other host's", () => {
    expect(isEmptyBan('tencent', 0)).toBe(true)
    expect(isEmptyBan('tencent', 1)).toBe(false)
    expect(isEmptyBan('eastmoney', 0)).toBe(false)
  })
})
