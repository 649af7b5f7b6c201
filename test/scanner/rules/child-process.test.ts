import { describe, expect, it } from 'vitest'
import { childProcess } from '../../../src/scanner/rules/child-process'
import { astHits, hitsOf } from '../helpers'

describe('child_process', () => {
  it('has the registry id, severity and CWE', () => {
    expect(childProcess.meta).toMatchObject({ id: 'child_process', severity: 'error', cwe: 'CWE-78' })
  })
  it('finds imports and calls, including computed module names', () => {
    expect(
      hitsOf('child_process', {
        'scripts/a.mjs':
          'import { exec as run } from \'node:child_process\'\nrun(\'ls\')\n'
          + 'const cp = await import(\'node:\' + \'child_process\')\n',
        'scripts/b.js':
          'const m = \'child\' + \'_process\'\nrequire(m).spawn(\'sh\')\nprocess.binding(\'spawn_sync\')\n',
      }),
    ).toEqual([
      'error child_process scripts/a.mjs:1:1',
      'error child_process scripts/a.mjs:2:1',
      'error child_process scripts/a.mjs:3:18',
      'error child_process scripts/b.js:2:1',
      'error child_process scripts/b.js:3:1',
    ])
  })
  it('finds Python subprocess/os.system and skips comments and strings', () => {
    expect(
      hitsOf('child_process', {
        'scripts/c.py': 'import subprocess\n# os.system(\'x\')\nprint(\'subprocess\')\nos.system(\'ls\')\n',
      }),
    ).toEqual(['error child_process scripts/c.py:1:8', 'error child_process scripts/c.py:4:1'])
  })
  it('does not treat local functions named exec as spawning', () => {
    expect(
      hitsOf('child_process', {
        'scripts/d.js': 'function exec(q) { return q }\nexec(\'select 1\')\nconst re = /x/g\nre.exec(\'x\')\n',
      }),
    ).toEqual([])
  })
})

describe('child_process: its AST visitor', () => {
  it('reads imports, `import x = require()`, dynamic imports, native bindings, Deno and Bun', () => {
    const text = [
      'import cp = require(\'child_process\')',
      'Deno.run({ cmd: [\'ls\'] })',
      'Bun.spawn([\'ls\'])',
      'import(\'node:\' + \'child_process\')',
      'process.dlopen(m, f)',
      'require(\'ht\' + \'tp\')',
    ].join('\n')
    expect(astHits('child_process', text, 'ts')).toEqual([
      'import cp = require(\'child_process\'): imports child_process, which spawns processes',
      'Deno.run({ cmd: [\'ls\'] }): spawns a process',
      'Bun.spawn([\'ls\']): spawns a process',
      'import(\'node:\' + \'child_process\'): dynamically imports child_process',
      'process.dlopen(m, f): spawns a process',
    ])
  })
})
