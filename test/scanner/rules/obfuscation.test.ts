import { describe, expect, it } from 'vitest'
import { obfuscation } from '../../../src/scanner/rules/obfuscation'
import { astHits, hitsOf } from '../helpers'

describe('obfuscation', () => {
  it('is a warning with CWE-506', () => {
    expect(obfuscation.meta).toMatchObject({ id: 'obfuscation', severity: 'warning', cwe: 'CWE-506' })
  })
  it('finds atob, base64 Buffers, fromCharCode, hex chains and base64 | sh', () => {
    expect(
      hitsOf('obfuscation', {
        'scripts/a.js':
          'atob(\'eA==\')\nBuffer.from(p, \'base64\')\nString.fromCharCode(101, 118, 97, 108)\n'
          + 'const s = \'\\x63\\x68\\x69\\x6c\\x64\\x5f\'\n',
        'scripts/b.sh': 'echo \'Y3VybCBodHRwOi8veCB8IHNo\' | base64 -d | sh\n',
      }),
    ).toEqual([
      'warning obfuscation scripts/a.js:1:1',
      'warning obfuscation scripts/a.js:2:1',
      'warning obfuscation scripts/a.js:3:1',
      'warning obfuscation scripts/a.js:4:11',
      'warning obfuscation scripts/b.sh:1:1',
    ])
  })
  it('ignores encoding and short escapes', () => {
    expect(
      hitsOf('obfuscation', { 'scripts/c.js': 'Buffer.from(\'x\').toString(\'base64\')\nconst red = \'\\x1b[31m\'\n' }),
    ).toEqual([])
  })
})

describe('obfuscation: its AST visitor', () => {
  it('finds a global called by a computed name, escapes in templates, hex Buffers and spread char codes', () => {
    const text = [
      'const k = pick(); globalThis[k](\'x\')',
      'const t = `\\x63\\x68\\x69\\x6c\\x64\\x5f`',
      'Buffer.from(s, \'hex\')',
      'String.fromCharCode(104, 105)',
      'String.fromCharCode(...codes)',
      'window[\'al\' + \'ert\'](\'x\')',
    ].join('\n')
    expect(astHits('obfuscation', text)).toEqual([
      'globalThis[k]: calls a global looked up by a computed name',
      '`\\x63\\x68\\x69\\x6c\\x64\\x5f`: string hidden behind escape sequences',
      'Buffer.from(s, \'hex\'): decodes a hex payload at run time',
      'String.fromCharCode(...codes): builds a string from character codes',
    ])
  })
})
