import { describe, expect, it } from 'vitest'
import { hits, scan } from './helpers'

describe('scanner options', () => {
  const files = { 'scripts/a.js': 'atob(\'eA==\')\nrequire(\'fs\').mkdirSync(\'x\')\n' }
  it('changes a rule severity or turns it off', () => {
    expect(hits(files)).toEqual(['warning obfuscation scripts/a.js:1:1', 'error fs_write scripts/a.js:2:1'])
    expect(hits(files, {}, { rules: { obfuscation: 'off', fs_write: 'info' } })).toEqual([
      'info fs_write scripts/a.js:2:1',
    ])
  })
  it('runs custom rules on the files their glob selects', () => {
    const r = scan(
      { 'scripts/a.py': 'x = internal.example.corp\n', 'SKILL.md': '# internal.example.corp\n' },
      {},
      {
        custom: [
          {
            id: 'internal_host',
            pattern: /internal\.example\.corp/,
            severity: 'error',
            cwe: 'CWE-200',
            files: 'scripts/**',
            message: 'internal host name',
            hint: 'Use the public host.',
          },
        ],
      },
    )
    expect(r.diagnostics.map(d => [d.code, d.severity, d.file, d.line, d.column, d.cwe, d.message, d.hint])).toEqual([
      [
        'scan/internal_host',
        'error',
        'skills/demo/scripts/a.py',
        1,
        5,
        'CWE-200',
        'internal host name',
        'Use the public host.',
      ],
    ])
  })
  it('reports an invalid custom pattern instead of throwing', () => {
    expect(hits({ 'a.txt': 'x' }, {}, { custom: [{ id: 'bad', pattern: '(' }] })).toEqual([
      'error scan/custom-rule-invalid null:null:null',
    ])
  })
  it('warns on text files over maxTextSize and still scans them line by line, without the parser', () => {
    const big = `${'// filler line\n'.repeat(200)}eval(payload)\n`
    expect(hits({ 'scripts/big.js': big }, {}, { maxTextSize: 1000 })).toEqual([
      'warning file-too-large scripts/big.js:null:null',
      'error dynamic_eval scripts/big.js:201:1',
    ])
  })
  it('runs no text rule on binary files (only the opaque-artifact warning)', () => {
    expect(hits({ 'resources/x.bin': new Uint8Array([0x65, 0x76, 0x61, 0x6C, 0x28, 0x29]) })).toEqual([
      'warning opaque_artifact resources/x.bin:1:1',
    ])
  })
})
