/**
 * Requests per minute each upstream family may receive from the whole service (every isolate,
 * every location), and where the figures come from (docs/upstreams.md, "Budgets"). A deployment
 * overrides them with the `UPSTREAM_BUDGETS` variable, a JSON object of the same shape.
 */
import type { ChannelName } from '../domain/channel-name'

export const UPSTREAM_BUDGETS: Record<ChannelName, number> = {
  // AKShare and efinance users report Eastmoney bans after about 200 quick calls, or polling one
  // endpoint every 15 s; two a second keeps a 200-call burst spread over 100 s.
  eastmoney: 120,
  // easyquotation polls the whole market from one address (90 requests of 60 codes every 3 s)
  // without reported bans; a third of that.
  tencent: 600,
  // easyquotation's whole-market poll is 7 requests of 800 codes every 3 s (140 a minute); Sina
  // refuses callers without a Referer and bans heavy pollers, so about twice that.
  sina: 300,
  // The hot list and the HKEX holdings are read a few times an hour.
  ths: 60,
  hkex: 30,
}
