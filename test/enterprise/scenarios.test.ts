import { afterAll, describe, expect, it } from 'vitest'
import { checkScenarios } from '../../src/enterprise/scenarios'
import { brief, cleanupSkills, makeSkill } from './helpers'

afterAll(cleanupSkills)

const names = new Set(['demo-skill', 'bazel'])
function check(scenario: string | Uint8Array, severity: 'error' | 'warning' = 'error') {
  return checkScenarios(makeSkill({ 'scenarios/case.md': scenario }), names, severity)
}

const valid = [
  '---',
  'prompt: "How do I build a Bazel module hermetically using Bzlmod?"',
  'executes: true',
  'expected_skills:',
  '  - bazel',
  'threshold: 0.70',
  'metadata:',
  '  category: "build"',
  '---',
  'To build a Bazel module hermetically using Bzlmod:',
  '1. Configure MODULE.bazel and commit MODULE.bazel.lock (CWE-829).',
  '',
].join('\n')

describe('scenarios/*.md', () => {
  it('parses the spec example into the manifest scenario', () => {
    expect(check(valid)).toEqual({
      diagnostics: [],
      scenarios: [
        {
          file: 'scenarios/case.md',
          prompt: 'How do I build a Bazel module hermetically using Bzlmod?',
          executes: true,
          expected_skills: ['bazel'],
          threshold: 0.7,
          metadata: { category: 'build' },
          reference:
            'To build a Bazel module hermetically using Bzlmod:\n'
            + '1. Configure MODULE.bazel and commit MODULE.bazel.lock (CWE-829).',
        },
      ],
    })
  })

  it('applies defaults: executes false, no expected skills, empty metadata', () => {
    const { diagnostics, scenarios } = check('---\nprompt: hi\nthreshold: 0\n---\nHello.\n')
    expect(diagnostics).toEqual([])
    expect(scenarios).toEqual([
      {
        file: 'scenarios/case.md',
        prompt: 'hi',
        executes: false,
        expected_skills: [],
        threshold: 0,
        metadata: {},
        reference: 'Hello.',
      },
    ])
  })

  it('validates each field with its own code, at the field', () => {
    const cases: Array<[string, string]> = [
      [
        valid.replace('prompt: "How do I build a Bazel module hermetically using Bzlmod?"\n', ''),
        'scenario/prompt error skills/demo-skill/scenarios/case.md:1:1',
      ],
      [valid.replace(/^prompt: .*$/m, 'prompt: 42'), 'scenario/prompt error skills/demo-skill/scenarios/case.md:2:1'],
      [valid.replace(/^prompt: .*$/m, 'prompt: ""'), 'scenario/prompt error skills/demo-skill/scenarios/case.md:2:1'],
      [
        valid.replace('executes: true', 'executes: "yes"'),
        'scenario/executes error skills/demo-skill/scenarios/case.md:3:1',
      ],
      [
        valid.replace('expected_skills:\n  - bazel', 'expected_skills: bazel'),
        'scenario/expected-skills error skills/demo-skill/scenarios/case.md:4:1',
      ],
      [
        valid.replace('  - bazel', '  - bazel\n  - bazel'),
        'scenario/expected-skills error skills/demo-skill/scenarios/case.md:4:1',
      ],
      [
        valid.replace('  - bazel', '  - Not A Name'),
        'scenario/expected-skills error skills/demo-skill/scenarios/case.md:5:5',
      ],
      [
        valid.replace('threshold: 0.70', 'threshold: 1.5'),
        'scenario/threshold error skills/demo-skill/scenarios/case.md:6:1',
      ],
      [
        valid.replace('threshold: 0.70', 'threshold: -0.1'),
        'scenario/threshold error skills/demo-skill/scenarios/case.md:6:1',
      ],
      [
        valid.replace('threshold: 0.70', 'threshold: "0.7"'),
        'scenario/threshold error skills/demo-skill/scenarios/case.md:6:1',
      ],
      [valid.replace('threshold: 0.70\n', ''), 'scenario/threshold error skills/demo-skill/scenarios/case.md:1:1'],
      [
        valid.replace('metadata:\n  category: "build"', 'metadata: [a, b]'),
        'scenario/metadata error skills/demo-skill/scenarios/case.md:7:1',
      ],
    ]
    for (const [text, expected] of cases) {
      const result = check(text)
      expect(brief(result.diagnostics), text).toEqual([expected])
      expect(result.scenarios).toEqual([])
    }
  })

  it('writes readable messages', () => {
    expect(check(valid.replace('threshold: 0.70', 'threshold: 1.5')).diagnostics[0].message).toBe(
      '`threshold` must be between 0 and 1',
    )
    expect(check(valid.replace('executes: true', 'executes: "yes"')).diagnostics[0].message).toBe(
      '`executes` must be a boolean',
    )
    expect(check(valid.replace('threshold: 0.70\n', '')).diagnostics[0].message).toBe('scenario is missing `threshold`')
  })

  it('requires expected skills to exist in this build', () => {
    const result = check(valid.replace('  - bazel', '  - bazel\n  - ghost-skill'))
    expect(brief(result.diagnostics)).toEqual(['scenario/unknown-skill error skills/demo-skill/scenarios/case.md:6:5'])
    expect(result.diagnostics[0].message).toBe('expected skill `ghost-skill` is not a skill of this build')
    expect(result.scenarios).toEqual([])
  })

  it('requires a reference outcome', () => {
    const result = check(valid.slice(0, valid.indexOf('To build')))
    expect(brief(result.diagnostics)).toEqual(['scenario/reference error skills/demo-skill/scenarios/case.md:10:1'])
  })

  it('warns on executes without expected skills, and keeps unknown keys under metadata', () => {
    const result = check('---\nprompt: p\nexecutes: true\nthreshold: 0.5\nowner: qa\n---\nAnswer.\n')
    expect(brief(result.diagnostics)).toEqual([
      'scenario/unknown-key warning skills/demo-skill/scenarios/case.md:5:1',
      'scenario/expected-skills warning skills/demo-skill/scenarios/case.md:3:1',
    ])
    expect(result.scenarios[0].metadata).toEqual({ owner: 'qa' })
  })

  it('reports frontmatter problems through the engine parser', () => {
    expect(brief(check('No frontmatter here.\n').diagnostics)).toEqual([
      'scenario/missing error skills/demo-skill/scenarios/case.md:1:1',
    ])
    expect(brief(check('---\nprompt: a: b\n---\nx\n').diagnostics)).toEqual([
      'scenario/yaml error skills/demo-skill/scenarios/case.md:2:10',
    ])
    expect(brief(check('---\nprompt: a\nprompt: b\n---\nx\n').diagnostics)).toEqual([
      'scenario/duplicate-key error skills/demo-skill/scenarios/case.md:3:1',
    ])
    expect(check('No frontmatter here.\n').diagnostics[0].message).toBe(
      'scenarios/case.md does not start with a `---` frontmatter block',
    )
    expect(brief(check(new Uint8Array([0xFF, 0xFE, 0, 1])).diagnostics)).toEqual([
      'scenario/encoding error skills/demo-skill/scenarios/case.md:null:null',
    ])
  })

  it('uses warnings in the agentskills profile and ignores non-markdown files', () => {
    expect(brief(check(valid.replace('threshold: 0.70', 'threshold: 2'), 'warning').diagnostics)).toEqual([
      'scenario/threshold warning skills/demo-skill/scenarios/case.md:6:1',
    ])
    const skill = makeSkill({ 'scenarios/data.json': '{}', 'scenarios/b.md': valid, 'scenarios/a.md': valid })
    expect(checkScenarios(skill, names, 'error').scenarios.map(s => s.file)).toEqual([
      'scenarios/a.md',
      'scenarios/b.md',
    ])
  })
})
