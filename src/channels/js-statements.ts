import { describeAnswer, malformed } from './errors'

/**
 * Splits a JavaScript quote feed into `<prefix><name>="<payload>";` statements, as both Tencent
 * (`v_sh600519="…";`) and Sina (`var hq_str_sh600519="…";`) send them. Names may carry `.` and `$`
 * (`gb_$dji`). Anything between statements that is not white space makes the answer malformed.
 */
export function jsStatements(channel: string, prefix: string, text: string): Array<[name: string, payload: string]> {
  const re = new RegExp(`\\s*${prefix.replace(/[$.]/g, '\\$&')}([\\w.$]+)="([^"\\n]*)";?`, 'y')
  const out: Array<[string, string]> = []
  let pos = 0
  while (pos < text.length) {
    re.lastIndex = pos
    const m = re.exec(text)
    if (!m) {
      if (text.slice(pos).trim() === '') break
      throw malformed(channel, `not the expected quote lines from character ${pos} (answer of ${describeAnswer(text)})`)
    }
    out.push([m[1], m[2]])
    pos = re.lastIndex
  }
  return out
}
