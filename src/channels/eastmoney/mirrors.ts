/**
 * Eastmoney serves each API from several hosts (`push2` / `push2delay`, `push2his` / numbered
 * mirrors, `datacenter-web` / `datacenter`). A call that fails on the first host is tried once on
 * its mirror before the channel gives up: the cheapest failover there is for data only Eastmoney
 * publishes. An `unsupported` answer (we asked for something it does not serve) is not retried.
 */
import { ChannelError } from '../errors'

/** The hosts of one API, first choice first. */
export const MIRRORS = {
  push2: ['push2.eastmoney.com', 'push2delay.eastmoney.com'],
  push2his: ['push2his.eastmoney.com', '61.push2his.eastmoney.com'],
  datacenter: ['datacenter-web.eastmoney.com', 'datacenter.eastmoney.com'],
} as const

/** Runs `call` with each host in turn until one succeeds; the last failure is thrown. */
export async function withMirrors<T>(hosts: readonly string[], call: (host: string) => Promise<T>): Promise<T> {
  let last: unknown
  for (const host of hosts) {
    try {
      return await call(host)
    } catch (e) {
      if (e instanceof ChannelError && e.kind === 'unsupported') throw e
      last = e
    }
  }
  throw last
}
