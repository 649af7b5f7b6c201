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

describe('fs_write: shell', () => {
  const sh = (...lines: string[]): string => `#!/bin/sh\n${lines.join('\n')}\n`

  it('finds the write commands and redirections to a file, one finding per line', () => {
    expect(
      hitsOf('fs_write', {
        'scripts/clean.sh': sh('set -e', 'rm -rf build', 'mkdir build', 'echo hi > build/x.txt'),
        'scripts/more.sh': sh(
          'touch a && cp a b; mv b c',
          'ln -s c d',
          'chmod +x run.sh',
          'cmd 2>&1 | tee -a log.txt',
          'sed -i.bak "s/a/b/" conf',
          'cmd 2> err.log',
          'printf x >> "$LOG"',
          'cat <<EOF > notes.md',
          'EOF',
        ),
        'scripts/nested.sh': sh('sudo mkdir -p /opt/x', 'find . -name "*.o" -exec rm {} +', 'x=$(mktemp); : > "$x"'),
      }),
    ).toEqual([
      'error fs_write scripts/clean.sh:3:1',
      'error fs_write scripts/clean.sh:4:1',
      'error fs_write scripts/clean.sh:5:9',
      'error fs_write scripts/more.sh:2:1',
      'error fs_write scripts/more.sh:3:1',
      'error fs_write scripts/more.sh:4:1',
      'error fs_write scripts/more.sh:5:12',
      'error fs_write scripts/more.sh:6:1',
      'error fs_write scripts/more.sh:7:5',
      'error fs_write scripts/more.sh:8:10',
      'error fs_write scripts/more.sh:9:11',
      'error fs_write scripts/nested.sh:2:6',
      'error fs_write scripts/nested.sh:3:26',
      'error fs_write scripts/nested.sh:4:16',
    ])
  })

  it('ignores what writes no file: the null device, other streams, comparisons, strings, subcommands', () => {
    expect(
      hitsOf('fs_write', {
        'scripts/quiet.sh': sh(
          'cmd > /dev/null 2>&1',
          'echo oops >&2',
          'cmd &>/dev/null; ls 2>/dev/null',
          'cmd | tee /dev/null',
          'exec 3<>/dev/tcp/example.com/80',
          'if (( n > 1 )); then echo many; fi',
          '[[ "$a" > "$b" ]] && echo later',
          'echo "a > b" \'c > d\'',
          'jq \'length > 0\' in.json',
          'git rm -r old && git mv a b && docker cp c:/x .',
          'rm --help',
          '# rm -rf build',
          'echo "then rm it"',
        ),
      }),
    ).toEqual([])
  })

  it('ignores heredoc and usage text: quotes, placeholders, labels, code comparisons', () => {
    expect(
      hitsOf('fs_write', {
        'scripts/usage.sh': sh(
          'cat <<EOF',
          'Usage: tool [options] > output',
          '  cp <src> <dst>    Copy a file',
          '> a quoted line',
          '<div class="note">x</div>',
          'EOF',
          'python3 - <<EOF',
          'print(len(xs) > 3)',
          'if x > 0:',
          'ok = a > b',
          'EOF',
        ),
      }),
    ).toEqual([])
  })

  it('reads shell blocks, unlabelled blocks that look like shell, text blocks and extensionless scripts', () => {
    const md = [
      '# Setup',
      '',
      'Run `rm -rf build` first; never `mkdir` by hand.',
      '',
      '```bash',
      'mkdir -p build',
      '```',
      '',
      '```',
      '$ echo hi > notes.txt',
      '```',
      '',
      '```text',
      'touch build/.keep',
      'cat <<EOF',
      'rm -rf printed',
      'EOF',
      'bash <<EOF',
      'rm -rf ran',
      'EOF',
      '```',
      '',
      '```python',
      'x = a > b',
      '```',
      '',
    ].join('\n')
    expect(
      hitsOf('fs_write', {
        'SKILL.md': md,
        'scripts/setup': '#!/usr/bin/env bash\nmkdir -p out\n',
        'scripts/plain': 'cp defaults.conf ~/.tool.conf\n',
        'Dockerfile': 'FROM alpine\nRUN rm -rf /var/cache/apk/*\n',
      }),
    ).toEqual([
      'error fs_write SKILL.md:6:1',
      'error fs_write SKILL.md:10:11',
      'error fs_write SKILL.md:14:1',
      'error fs_write SKILL.md:19:1',
      'error fs_write scripts/plain:1:1',
      'error fs_write scripts/setup:2:1',
    ])
  })

  it('reads PowerShell writes', () => {
    expect(
      hitsOf('fs_write', {
        'scripts/a.ps1': 'Set-Content -Path out.txt -Value hi\nGet-Content in.txt\nRemove-Item -Recurse build\n',
      }),
    ).toEqual(['error fs_write scripts/a.ps1:1:1', 'error fs_write scripts/a.ps1:3:1'])
  })

  it('keeps the rule\'s conventions: a declared write is a note, so is a fenced example called bad', () => {
    const md = '# Cleanup\n\nDon\'t do this:\n\n```bash\nrm -rf "$HOME/build"\n```\n'
    expect(hitsOf('fs_write', { 'SKILL.md': md })).toEqual(['info fs_write SKILL.md:6:1'])
    expect(hitsOf('fs_write', { 'scripts/a.sh': sh('rm -rf build') }, { capabilities: ['fs:write'] })).toEqual([
      'info fs_write scripts/a.sh:2:1',
    ])
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
