import { describe, expect, it } from 'vitest'
import { hiddenUnicode } from '../../../src/scanner/rules/hidden-unicode'
import { scan } from '../helpers'

describe('hidden_unicode', () => {
  it('is an error with a CWE', () => {
    expect(hiddenUnicode.meta).toMatchObject({ id: 'hidden_unicode', severity: 'error', cwe: 'CWE-451' })
  })
  it('finds bidi controls, zero-width characters and tag characters, with escaped excerpts', () => {
    const r = scan({
      'scripts/a.js': 'if (level != "user\u202E \u2066// admin\u2069 \u2066") {}\n',
      'SKILL.md': `# x\n\nfor\u200Bmatter\nok${String.fromCodePoint(0xE0069, 0xE0067)}\n`,
    })
    expect(r.diagnostics.map(d => [d.rule, d.file, d.line, d.column])).toEqual([
      ['hidden_unicode', 'skills/demo/SKILL.md', 3, 4],
      ['hidden_unicode', 'skills/demo/SKILL.md', 4, 3],
      ['hidden_unicode', 'skills/demo/scripts/a.js', 1, 19],
    ])
    expect(r.diagnostics[2]!.excerpt).toBe('(level != "user\\u{202E} \\u{2066}// admin\\u{2069} \\u{2066}")')
    expect(r.diagnostics[1]!.excerpt).toBe('ok\\u{E0069}\\u{E0067}')
  })
  it('accepts emoji ZWJ sequences, flag tags, ZWNJ in Persian and CJK variation selectors', () => {
    const r = scan({
      'SKILL.md':
        `# x\n\n`
        + `👨\u200D👩\u200D👧 🏳️\u200D🌈 🏴${String.fromCodePoint(0xE0067, 0xE0062, 0xE0065, 0xE006E, 0xE0067, 0xE007F)}\n`
        + `می\u200Cخواهم 葛${String.fromCodePoint(0xE0100)}\n`,
    })
    expect(r.diagnostics).toEqual([])
  })
})
