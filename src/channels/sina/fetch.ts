import { ChannelError } from '../errors'
import { fetchText } from '../http'
import type { ChannelContext } from '../types'

export const CHANNEL = 'sina' as const

/** Every Sina host answers 403 without a Referer on `*.sina.com.cn`. */
export const SINA_HEADERS: Readonly<Record<string, string>> = { Referer: 'https://finance.sina.com.cn/' }

/** GETs a Sina URL with the required Referer; failures are typed by {@link fetchText}. */
export function sinaText(ctx: ChannelContext, url: string, encoding: 'utf-8' | 'gbk' = 'utf-8'): Promise<string> {
  return fetchText(ctx, CHANNEL, url, { headers: { ...SINA_HEADERS }, encoding })
}

/** True for the `http` failure of a 404 (its status is only carried in the message). */
export const isNotFound = (e: unknown): boolean => e instanceof ChannelError && e.status === 404
