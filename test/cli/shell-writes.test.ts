import { describe, expect, it } from 'vitest'
import { makeTree, read } from '../helpers'
import { cli } from './run-cli'

/** The walkthrough's `setup-tool`: an enterprise skill whose shell script writes, declaring nothing. */
function setupTool(): string {
  return makeTree({
    'skills.config.json': '{ "ci": false }',
    'skills/setup-tool/SKILL.md': [
      '---',
      'name: setup-tool',
      'description: Set up the tool. Use when onboarding.',
      'version: 1.0.0',
      'domain: eng',
      'category: tooling',
      '---',
      '',
      '# Setup',
      '',
      'See [i](references/i.md).',
      '',
    ].join('\n'),
    'skills/setup-tool/references/i.md': '# I\n',
    'skills/setup-tool/examples/run.md': 'run\n',
    'skills/setup-tool/scripts/clean.sh': '#!/bin/bash\nset -e\nrm -rf build\nmkdir build\necho hi > build/x.txt\n',
  })
}

describe('a shell script\'s writes, from check to the lock', () => {
  it('check fails on the undeclared fs:write, naming each line, and a write skill gets enterprise checks', async () => {
    const root = setupTool()
    const { code, stdout } = await cli(['check', '--no-cache', '--no-color', '--cwd', root])
    expect(code).toBe(1)
    const lines = stdout.split('\n')
    const at = lines.indexOf('error scan/fs_write skills/setup-tool/scripts/clean.sh:3:1 CWE-73')
    expect(lines.slice(at, at + 2)).toEqual([
      'error scan/fs_write skills/setup-tool/scripts/clean.sh:3:1 CWE-73',
      '  shell filesystem write (3 uses in this file: lines 3, 4, 5)',
    ])
    expect(lines).toContain('  the skill writes (fs:write (detected by the scanner)) but declares no `workload`')
    expect(lines.slice(-5)).toEqual([
      'skill       errors  warnings  capabilities',
      'setup-tool       2         1  fs:write',
      '',
      '✖ 2 errors, 2 warnings, 0 notes in 1 skill',
      '',
    ])
  })

  it('the lock records the capability for review (and exits 1: the undeclared use is still an error)', async () => {
    const root = setupTool()
    const { code, stdout } = await cli(['lock', '--no-cache', '--no-color', '--cwd', root])
    expect(code).toBe(1)
    expect(stdout).toContain('  setup-tool  fs:write      fs:write    new\n')
    const lock = JSON.parse(read(root, '.manifest.lock')) as { skills: Array<{ capabilities: string[] }> }
    expect(lock.skills.map(s => s.capabilities)).toEqual([['fs:write']])
  })
})
