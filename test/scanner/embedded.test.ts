import { describe, expect, it } from 'vitest'
import { sniffLang } from '../../src/scanner/sniff'
import { hits } from './helpers'

// Code the line scan reads where it sits: inside shell, across lines, in data formats, in unlabelled fences.
describe('code wherever it sits', () => {
  it('reads python -c, node -e and heredocs inside shell as their language', () => {
    expect(
      hits({
        'scripts/a.sh':
          '#!/bin/bash\npython3 -c \'import subprocess; subprocess.run(["id"])\'\n'
          + 'node -e "require(\'child_process\').execSync(\'id\')"\n'
          + 'python3 - <<\'EOF\'\nimport os\nos.system(\'id\')\nEOF\ncat > /tmp/x.rb <<EOF\nsystem(\'id\')\nEOF\n',
      }),
    ).toEqual([
      'error child_process scripts/a.sh:2:20',
      'error child_process scripts/a.sh:3:19',
      'error child_process scripts/a.sh:6:1',
      'error child_process scripts/a.sh:9:1',
      'error fs_write scripts/a.sh:8:5',
    ])
  })
  it('reads continuation lines and multi-line Python calls as one line', () => {
    expect(
      hits({
        'scripts/a.sh': 'rm \\\n  -rf /\n',
        'scripts/a.py': 't = socket.socket(\n    socket.AF_INET)\nwith open(\n    path, \'w\') as f:\n    pass\n',
      }),
    ).toEqual([
      'error network_access scripts/a.py:1:5',
      'error fs_write scripts/a.py:3:6',
      'error dangerous_shell scripts/a.sh:1:1',
      'error fs_write scripts/a.sh:1:1',
    ])
  })
  it('reads code in a string with \\n escapes', () => {
    expect(hits({ 'scripts/a.py': 'exec("import os\\nos.system(\'id\')")\n' })).toEqual([
      'error dynamic_eval scripts/a.py:1:1',
      'error child_process scripts/a.py:1:18',
    ])
  })
  it('reads JSON and YAML command values as shell', () => {
    expect(
      hits({
        'SKILL.md':
          '# x\n\n```json\n{"mcpServers": {"x": {"command": "bash", "args": ["-c", "rm -rf /"]}}}\n```\n\n'
          + '```yaml\nsteps:\n  - run: |\n      echo hi\n      rm -rf ~\n```\n',
        'package.json': '{"scripts": {"postinstall": "rm -rf $HOME/*"}}\n',
      }).filter(h => h.includes('dangerous_shell')),
    ).toEqual([
      'error dangerous_shell SKILL.md:4:58',
      'error dangerous_shell SKILL.md:11:7',
      'error dangerous_shell package.json:1:30',
    ])
  })
  it('reads an unlabelled fence as what it looks like, and Ruby and Go fences and files', () => {
    expect(
      hits({
        'SKILL.md':
          '# x\n\n```\nimport subprocess\nsubprocess.run([\'id\'])\n```\n\n```ruby\nout = `uname -a`\n```\n\n'
          + '```go\ncmd := exec.Command("sh", "-c", "id")\n```\n',
        'scripts/a.rb': 'require \'net/http\'\nsystem(\'ls\')\nFile.write(\'o.txt\', x)\n',
        'scripts/b.go': 'import (\n\t"net/http"\n\t"os/exec"\n)\n',
      }),
    ).toEqual([
      'error child_process SKILL.md:4:8',
      'error child_process SKILL.md:5:1',
      'error child_process SKILL.md:9:6',
      'error child_process SKILL.md:13:8',
      'error network_access scripts/a.rb:1:1',
      'error child_process scripts/a.rb:2:1',
      'error fs_write scripts/a.rb:3:1',
      'error network_access scripts/b.go:2:1',
      'error child_process scripts/b.go:3:2',
    ])
  })
  it('sniffs unlabelled code by its first telling line', () => {
    const texts = ['$ npm i', '#!/usr/bin/env python3\nx', 'package main', 'const a = 1', 'puts "hi"', 'Some notes']
    expect(texts.map(sniffLang))
      .toEqual(['sh', 'py', 'go', 'js', 'rb', null])
  })
})
