/**
 * Texts with characters above U+00FF are read through a one-byte stand-in (src/narrow.ts). These
 * tests pin which characters may stand in, that the real text and any slice of it come back exactly,
 * and that the decoder hands out a stand-in only where it may.
 */
import { Buffer } from 'node:buffer'
import { describe, expect, it } from 'vitest'
import { mayStandIn, NarrowText, STAND_IN } from '../../src/narrow'
import { decodeUtf8 } from '../../src/utf8'

const code = (ch: string): number => ch.charCodeAt(0)

describe('which characters may stand in', () => {
  it('takes the punctuation, symbols and letters of real skills', () => {
    for (const ch of [
      '—',
      '–',
      '→',
      '─',
      '│',
      '✅',
      '❌',
      '…',
      '≥',
      '’',
      '“',
      '”',
      '€',
      '™',
      'α',
      'Ж',
      '中',
      '한',
      '\u0301',
      '٣',
      '\uE000',
    ])
      expect(mayStandIn(code(ch)), `U+${code(ch).toString(16)}`).toBe(true)
  })

  it('refuses whitespace, line terminators, invisible characters, surrogates and letters that case-map onto latin1', () => {
    const refused = [
      '\u1680',
      '\u2000',
      '\u2009',
      '\u200A',
      '\u202F',
      '\u205F',
      '\u3000',
      '\uFEFF', // \s
      '\u2028',
      '\u2029', // line terminators
      '\u200B',
      '\u200C',
      '\u200D',
      '\u2060',
      '\u2062',
      '\u2065',
      '\u202A',
      '\u202E',
      '\u2066',
      '\u2069',
      '\u061C',
      '\u180E', // invisible (Cf)
      '\u115F',
      '\u1160',
      '\u3164',
      '\uFFA0',
      '\u17B4',
      '\uFE0F',
      '\uFFF9', // invisible fillers and selectors
      '\uD83D',
      '\uDCA1', // halves of a surrogate pair
      '\u017F',
      '\u212A',
      '\u212B',
      '\u1E9E',
      '\u0178',
      '\u0130',
      '\u0131',
      '\u039C',
      '\u03BC',
      '\uFB01', // case onto latin1
    ]
    for (const ch of refused) expect(mayStandIn(code(ch)), `U+${code(ch).toString(16)}`).toBe(false)
  })
})

describe('narrowText', () => {
  const real = 'a—b\n→ c “quoted” 中文\r\nend…'
  const units = [...real].map((ch, i) => [i, code(ch)] as const).filter(([, u]) => u > 0xFF)
  const scan = [...real].map(ch => (code(ch) > 0xFF ? String.fromCharCode(STAND_IN) : ch)).join('')
  const text = new NarrowText(scan, Uint32Array.from(units.map(([i]) => i)), Uint16Array.from(units.map(([, u]) => u)))

  it('gives back the real text and every slice of it', () => {
    expect(text.text).toBe(real)
    expect(text.length).toBe(real.length)
    for (let from = 0; from <= real.length; from++) {
      for (let to = from; to <= real.length + 2; to++) expect(text.slice(from, to)).toBe(real.slice(from, to))
    }
  })
})

describe('decodeUtf8 with a stand-in', () => {
  const decode = (s: string): ReturnType<typeof decodeUtf8> => decodeUtf8(Buffer.from(s, 'utf8'), 0, true)

  it('hands out a one-byte stand-in of the same length and line breaks', () => {
    const real = `${'word — ÿ é, more words → x\n'.repeat(40)}中文 end`
    const got = decode(real)
    expect(got).toBeInstanceOf(NarrowText)
    const narrow = got as NarrowText
    expect(narrow.text).toBe(real)
    expect(narrow.scan).toBe(real.replace(/[^\x00-\xFF]/g, String.fromCharCode(STAND_IN)))
    // U+00FF saturates like a wide unit in the SIMD narrowing, and must come back as itself.
    expect(narrow.scan.includes('ÿ')).toBe(true)
  })

  it('decodes as it is a text with a character that may not stand in, a text in another script, or when not asked', () => {
    for (const odd of ['\u3000', '\u2028', '\u200B', '\u017F', '\uD83D\uDE00']) {
      const real = `${'word — x\n'.repeat(40)}${odd} end`
      expect(decode(real)).toBe(real)
    }
    // Another script: more than one character in eight above U+00FF.
    const dense = `${'中文字 — ab\n'.repeat(40)}`
    expect(decode(dense)).toBe(dense)
    const real = `${'word — x\n'.repeat(40)}`
    expect(decode(real)).toBeInstanceOf(NarrowText)
    expect(decodeUtf8(Buffer.from(real, 'utf8'))).toBe(real)
    expect(decodeUtf8(Buffer.from(real, 'utf8'), 0, false)).toBe(real)
    // Latin1 only: nothing to stand in for, the string itself.
    const latin1 = `${'café, naïve, ÿ\n'.repeat(40)}`
    expect(decode(latin1)).toBe(latin1)
  })

  it('stands in for a text too long for a regular two-byte string (a large object in V8 11.3)', () => {
    const line = 'a line of prose — with an arrow → and a check ✅\n'
    const long = line.repeat(Math.ceil(70_000 / line.length))
    const got = decode(long)
    expect(got).toBeInstanceOf(NarrowText)
    expect((got as NarrowText).text).toBe(long)
    expect((got as NarrowText).slice(65_000, 66_000)).toBe(long.slice(65_000, 66_000))
  })
})
