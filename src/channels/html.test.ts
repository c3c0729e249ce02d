import { describe, expect, it } from 'vitest'
import { byClass, byId, byTag, decodeEntities, inputs, textOf } from './html'

describe('decodeEntities', () => {
  it('decodes named, decimal and hex references and leaves unknown ones', () => {
    expect(decodeEntities('A &amp; B &#39;x&#39; &#x4E2D; &lt;&gt; &nbsp;&bogus;')).toBe("A & B 'x' 中 <>  &bogus;")
  })
})

describe('inputs', () => {
  it('reads every named input whatever the attribute order and quoting; the first of a name wins', () => {
    const html = `<input type="hidden" name="a" id="a" value="1" /><input value='2' name='b'><input id="c" name=c value=3>
      <input name="d" type="text" /><input value="x"><input name="a" value="late" /><!-- <input name="e" value="commented"> -->`
    expect(Object.fromEntries(inputs(html))).toEqual({ a: '1', b: '2', c: '3', d: '' })
  })

  it('decodes values', () => {
    expect(inputs('<input name="v" value="a&amp;b&#43;c" />').get('v')).toBe('a&b+c')
  })
})

describe('elements', () => {
  const html = `<div class="outer x"><div class="value">1</div><div><div class="value">2</div></div></div>
    <DIV CLASS="outer"><span>3</span></DIV><div class="outer-not">4</div><br/><div class="outer" />`

  it('finds elements by class token (not by substring), with their own inner HTML, nesting counted', () => {
    const outer = byClass(html, 'div', 'outer')
    expect(outer.map((e) => textOf(e.inner))).toEqual(['1 2', '3'])
    expect(byClass(outer[0].inner, 'div', 'value').map((e) => textOf(e.inner))).toEqual(['1', '2'])
  })

  it('finds by id and by tag', () => {
    expect(byId('<p><div id="a">x<div>y</div></div></p>', 'div', 'a')!.inner).toBe('x<div>y</div>')
    expect(byId('<div id="b"></div>', 'div', 'a')).toBeUndefined()
    expect(byTag('<table><tbody><tr><td>1</td></tr><tr><td>2</td></tr></tbody></table>', 'tr').map((e) => textOf(e.inner))).toEqual(['1', '2'])
  })

  it('ignores look-alike markup in scripts and comments, and throws for an element that never closes', () => {
    expect(byClass('<script>var s = "<div class=\\"v\\">no</div>"</script><!-- <div class="v">no</div> --><div class="v">yes</div>', 'div', 'v').map((e) => e.inner)).toEqual(['yes'])
    expect(() => byClass('<div class="v"><div>cut', 'div', 'v')).toThrow(/never closes/)
  })
})

describe('textOf', () => {
  it('drops tags, decodes and collapses whitespace', () => {
    expect(textOf('\n  <b>THE HONGKONG</b>\n AND&nbsp;SHANGHAI &amp; CO  ')).toBe('THE HONGKONG AND SHANGHAI & CO')
  })
})
