import { Buffer } from 'node:buffer'
import { describe, expect, it } from 'vitest'
import { decodeUtf8 } from '../../src/utf8'

// Every UTF-8 length and its boundaries, a BOM, and runs long enough for the 16-byte ASCII steps.
const PIECES = [
  'a',
  'Hello world. ',
  '\n',
  '\u007F',
  '\u0080',
  '\u00E9',
  '\u07FF',
  '\u0800',
  '\u2014',
  '\uFEFF',
  '\uFFFF',
  '\uD800\uDC00',
  '\uD83D\uDCA1',
  '\uDBFF\uDFFF',
  'x'.repeat(40),
]

function texts(count: number, longEvery: number): string[] {
  let seed = 5
  const rnd = (): number => {
    seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
    return seed / 0x7FFFFFFF
  }
  return Array.from({ length: count }, (_, k) => {
    let s = ''
    const n = Math.floor(rnd() * (k % longEvery === 0 ? 30_000 : 300))
    for (let i = 0; i < n; i++) s += PIECES[Math.floor(rnd() * PIECES.length)]
    return s
  })
}

describe('decodeUtf8', () => {
  it('gives the string Node gives, for every length of sequence and of text', () => {
    for (const text of texts(2000, 40)) {
      const bytes = Buffer.from(text, 'utf8')
      expect(decodeUtf8(bytes)).toBe(bytes.toString('utf8'))
    }
  })

  it('starts where it is told (after a BOM) and reads a view at its own offset', () => {
    const bytes = Buffer.from(`\uFEFF${'abc\u2014'.repeat(300)}`, 'utf8')
    expect(decodeUtf8(bytes, 3)).toBe(bytes.toString('utf8', 3))
    const view = new Uint8Array(bytes.buffer, bytes.byteOffset + 3, bytes.length - 3)
    expect(decodeUtf8(view)).toBe('abc\u2014'.repeat(300))
  })

  it('grows its memory for a large text, and decodes small ones right after', () => {
    const big = `${'\u2014 word '.repeat(100_000)}end`
    const small = `${'x'.repeat(300)}\u00E9`
    expect(decodeUtf8(Buffer.from(small, 'utf8'))).toBe(small)
    expect(decodeUtf8(Buffer.from(big, 'utf8'))).toBe(big)
    expect(decodeUtf8(Buffer.from(small, 'utf8'))).toBe(small)
  })
})
