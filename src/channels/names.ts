/**
 * A security's short name as one spelling on every channel. Tencent, Sina and Eastmoney pad short
 * Chinese names to a fixed width with spaces (`五 粮 液`, `万  科Ａ`; real captures in
 * test/fixtures/sina and tencent), while other answers of the same upstreams do not: left as sent,
 * a stock's name would change with the channel that answered. Whitespace between two CJK or
 * full-width characters is padding and goes; spaces in Latin names (`Apple Inc.`, HK English
 * names) and the full-width letters of official names (`万科Ａ`) stay.
 */
const PADDING = /(?<=[\u3000-\u9fff\uf900-\ufaff\uff01-\uff5e])[\s\u3000]+(?=[\u3000-\u9fff\uf900-\ufaff\uff01-\uff5e])/g

export function securityName(raw: string): string {
  return raw.replace(PADDING, '').trim()
}
