import type { RuleModule } from '../types'

const EMOJI = /[\p{Extended_Pictographic}\p{Emoji_Modifier}\u{FE0F}\u{20E3}]/u
const JOINING_SCRIPT = /[\p{L}\p{M}]/u

function cpBefore(line: string, i: number): string {
  if (i <= 0)
    return ''
  const c = line.charCodeAt(i - 1)
  return c >= 0xDC00 && c <= 0xDFFF && i >= 2 ? line.slice(i - 2, i) : line[i - 1]!
}
function cpAt(line: string, i: number): string {
  const cp = line.codePointAt(i)
  return cp === undefined ? '' : String.fromCodePoint(cp)
}
const nonLatinLetter = (ch: string): boolean => !!ch && ch.codePointAt(0)! >= 0x0370 && JOINING_SCRIPT.test(ch)

/**
 * Legitimate uses: ZWJ in emoji sequences and complex scripts, ZWNJ in complex scripts, tag runs of flag emoji, CJK
 * variation selectors.
 */
function legitimate(m: RegExpExecArray, line: string): boolean {
  const ch = m[0]
  const cp = ch.codePointAt(0)!
  const i = m.index
  const before = cpBefore(line, i)
  const after = cpAt(line, i + ch.length)
  if (cp === 0x200D)
    return (EMOJI.test(before) && EMOJI.test(after)) || (nonLatinLetter(before) && nonLatinLetter(after))
  if (cp === 0x200C)
    return nonLatinLetter(before) && nonLatinLetter(after)
  if (cp >= 0xE0020 && cp <= 0xE007F) {
    // Subdivision flags: U+1F3F4 followed by tag letters and CANCEL TAG.
    let j = i
    while (j >= 2) {
      const prev = line.codePointAt(j - 2)!
      if (prev >= 0xE0020 && prev <= 0xE007E)
        j -= 2
      else break
    }
    return line.codePointAt(j - 2) === 0x1F3F4
  }
  if (cp >= 0xE0100 && cp <= 0xE01EF)
    return /\p{Ideographic}/u.test(before)
  // A zero-width space opening a line of backticks or tildes is markdown's way to show a fence inside a
  // fence: the only thing it changes is that the line does not close the block.
  if (cp === 0x200B || cp === 0x2060 || cp === 0xFEFF)
    return !line.slice(0, i).trim() && /^(?:`{3,}|~{3,})/.test(line.slice(i + ch.length))
  return false
}

/**
 * Invisible characters that change how text reads (Trojan Source bidi controls, zero-width, tag smuggling). Every text
 * file.
 */
export const hiddenUnicode: RuleModule = {
  meta: {
    id: 'hidden_unicode',
    kind: 'threat',
    severity: 'error',
    cwe: 'CWE-451',
    description:
      'Hidden Unicode: bidirectional controls (Trojan Source), zero-width characters and Unicode tag characters '
      + 'that make text or code read differently from how it runs.',
    hint:
      'Remove the invisible character (the excerpt shows it as \\u{...}); emoji joiners inside emoji sequences are '
      + 'allowed.',
  },
  patterns: [
    {
      anchor: [
        String.raw`[\u200B-\u200D\u2060-\u2064\u202A-\u202E\u2066-\u2069\uFEFF\u180E\u115F\u1160\u3164\uFFA0]`,
        String.raw`|\uDB40[\uDC00-\uDDEF]`,
      ].join(''),
      // Variation selectors (combining) are among what this rule reports.
      // eslint-disable-next-line style/max-len, no-misleading-character-class -- a pattern is clearer whole
      re: /[\u200B-\u200D\u2060-\u2064\u202A-\u202E\u2066-\u2069\uFEFF\u180E\u115F\u1160\u3164\uFFA0\u{E0000}-\u{E007F}\u{E0100}-\u{E01EF}]/gu,
      langs: ['js', 'py', 'sh', 'prose', 'text'],
      message: 'invisible or bidirectional control character',
      accept: (m, line) => !legitimate(m, line),
    },
  ],
}
