import { describe, expect, it } from 'vitest'
import { diagnostic } from '../../src/core/diagnostics'
import { formatReport } from '../../src/core/format'

const drift = diagnostic({
  code: 'lock/drift',
  severity: 'warning',
  message: 'skill `a` changed\n  version 1.0.0 -> 1.1.0\n  ~ SKILL.md\n  + scripts/new.sh',
  file: 'skills/a/SKILL.md',
  skill: 'a',
})
const known = diagnostic({
  code: 'fs/empty-file',
  severity: 'warning',
  message: 'scripts/b.py is empty',
  file: 'skills/b/scripts/b.py',
  skill: 'b',
})
const note = diagnostic({ code: 'scan/network_access', severity: 'info', message: 'declared', file: 'x', skill: 'c' })
const skills = ['a', 'b', 'c', 'd'].map(name => ({ name, capabilities: name === 'c' ? ['network'] : [] }))

describe('formatReport', () => {
  it('keeps a one-line warning\'s detail lines: a drift lists its files as in the full form', () => {
    expect(formatReport([drift], 1).split('\n')).toEqual([
      'warning lock/drift skills/a/SKILL.md skill `a` changed',
      '    version 1.0.0 -> 1.1.0',
      '    ~ SKILL.md',
      '    + scripts/new.sh',
      '',
      '⚠ 0 errors, 1 warning, 0 notes in 1 skill',
      '',
    ])
  })

  it('counts everything in `counted` when it lists only some: the summary and table tell the whole state', () => {
    const report = formatReport([drift], 4, { skills, counted: [drift, known, note] })
    expect(report.split('\n').slice(4)).toEqual([
      '',
      'skill  errors  warnings  capabilities',
      'a           0         1  -',
      // `b` has a warning counted but not listed: it is neither a row nor among the skills without any.
      '(2 more skill(s) without errors or warnings)',
      '',
      '⚠ 0 errors, 2 warnings, 1 note in 4 skills',
      '',
    ])
  })

  it('does not count a removed skill\'s drift among the audited skills without problems', () => {
    const removed = { ...drift, message: 'skill `gone` is in the lock but no longer found', skill: 'gone' }
    expect(formatReport([removed], 2, { skills: skills.slice(0, 2) }).split('\n').slice(2, 6)).toEqual([
      'skill  errors  warnings  capabilities',
      'gone        0         1  -',
      '(2 more skill(s) without errors or warnings)',
      '',
    ])
  })
})
