import { describe, expect, it } from 'vitest'
import { fsWrite } from '../../../src/scanner/rules/fs-write'
import { astHits, hitsOf } from '../helpers'

describe('fs_write', () => {
  it('is a capability (an undeclared use is an error in enterprise) with a CWE', () => {
    expect(fsWrite.meta).toMatchObject({ id: 'fs_write', kind: 'capability', severity: 'error', cwe: 'CWE-73' })
  })
  it('finds JS writes through promises and computed names, and Python writes', () => {
    expect(
      hitsOf('fs_write', {
        'scripts/a.mjs':
          'import { promises as fsp } from \'fs\'\nawait fsp.writeFile(\'a\', \'b\')\n'
          + 'const fs = await import(\'node:fs\')\nfs[\'unlink\' + \'Sync\'](\'a\')\n',
        'scripts/b.py': 'with open(p, \'w\') as f:\n    pass\nshutil.rmtree(\'x\')\nopen(p).read()\n',
      }),
    ).toEqual([
      'error fs_write scripts/a.mjs:2:7',
      'error fs_write scripts/a.mjs:4:1',
      'error fs_write scripts/b.py:1:6',
      'error fs_write scripts/b.py:3:1',
    ])
  })
  it('ignores reads', () => {
    expect(
      hitsOf('fs_write', {
        'scripts/r.js': 'const fs = require(\'fs\')\nfs.readFileSync(\'a\')\nprocess.stdout.write(\'x\')\n',
      }),
    ).toEqual([])
  })
})

describe('fs_write: its AST visitor', () => {
  it('names the write: Deno, Bun and fs.promises', () => {
    const text = 'await Deno.writeTextFile(\'a\', \'b\')\nawait Bun.write(\'a\', \'b\')\n'
      + 'require(\'fs\').promises.mkdir(\'d\')\nrequire(\'fs\').readFileSync(\'a\')\nawait Deno.readTextFile(\'a\')\n'
    expect(astHits('fs_write', text)).toEqual([
      'Deno.writeTextFile(\'a\', \'b\'): writes to the filesystem (writeTextFile)',
      'Bun.write(\'a\', \'b\'): writes to the filesystem (write)',
      'require(\'fs\').promises.mkdir(\'d\'): writes to the filesystem (mkdir)',
    ])
  })
})
