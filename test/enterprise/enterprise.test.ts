import type { SkillFile, SkillSource } from '../../src/core/types'
import { afterAll, describe, expect, it } from 'vitest'
import { checkEnterprise } from '../../src/enterprise'
import { brief, cleanupSkills, loadFixture, makeSkill, options, scanWith } from './helpers'

afterAll(cleanupSkills)

const skillNames = new Set(['payment-gateway', 'broken-skill'])
const app = { domain: 'retailcortex.com', name: 'checkout-agent' }

describe('checkEnterprise on fixture skills', () => {
  it('passes a compliant write skill and records links, scenarios, HITL, URI and URN', () => {
    const result = checkEnterprise(loadFixture('payment-gateway'), {
      options: options({ app, strict: true }),
      scan: scanWith(['network']),
      skillNames,
    })
    expect(result.diagnostics).toEqual([])
    expect(result.links).toEqual([
      'https://docs.acme-payments.example/v2',
      'https://docs.acme-payments.example/v2/charges',
    ])
    expect(result.scenarios.map(s => [s.file, s.executes, s.expected_skills, s.threshold])).toEqual([
      ['scenarios/charge-card.md', true, ['payment-gateway'], 0.5],
      ['scenarios/refund.md', false, [], 0.3],
    ])
    expect(result.workload).toBe('write')
    expect(result.requiresApproval).toBe(true)
    expect(result.uri).toBe('castor://skills/retailcortex.com/payments/payment-gateway/1.0.0')
    expect(result.urn).toBe('urn:castor:skill:retailcortex.com:checkout-agent:payment-gateway:v1.0.0')
  })

  it('reports every invariant violation of the broken skill, sorted, in the enterprise profile', () => {
    const result = checkEnterprise(loadFixture('broken-skill'), {
      options: options({ app }),
      scan: scanWith(['network', 'fs:write']),
      skillNames,
    })
    expect(brief(result.diagnostics)).toEqual([
      'hitl/undeclared-workload error skills/broken-skill/SKILL.md:null:null',
      'quality/security-checkpoint warning skills/broken-skill/SKILL.md:null:null',
      'uri/domain warning skills/broken-skill/SKILL.md:5:1',
      'link/broken error skills/broken-skill/SKILL.md:11:17',
      'link/escape error skills/broken-skill/SKILL.md:11:49',
      'link/absolute error skills/broken-skill/SKILL.md:12:13',
      'link/anchor error skills/broken-skill/SKILL.md:12:42',
      'quality/unknown-cwe error skills/broken-skill/SKILL.md:13:11',
      'quality/http-429 warning skills/broken-skill/examples/upload.py:3:1',
      'scenario/unknown-skill error skills/broken-skill/scenarios/bad.md:5:5',
      'scenario/threshold error skills/broken-skill/scenarios/bad.md:6:1',
    ])
    expect(result.diagnostics.every(d => d.skill === 'broken-skill')).toBe(true)
    expect(result.links).toEqual(['https://example.com/a', 'https://example.com/b'])
    expect(result.scenarios).toEqual([])
    expect(result.workload).toBe('read')
    expect(result.requiresApproval).toBe(true)
    expect(result.uri).toBeUndefined()
    expect(result.urn).toBe('urn:castor:skill:retailcortex.com:checkout-agent:broken-skill:v0.1.0')
  })

  it('strict mode turns the quality warnings into errors', () => {
    const result = checkEnterprise(loadFixture('broken-skill'), {
      options: options({ strict: true }),
      scan: scanWith(['network', 'fs:write']),
      skillNames,
    })
    const quality = result.diagnostics.filter(
      d => d.code === 'quality/http-429' || d.code === 'quality/security-checkpoint',
    )
    expect(quality.map(d => d.severity)).toEqual(['error', 'error'])
  })

  it('agentskills profile: only links, scenarios and HITL, as warnings', () => {
    const result = checkEnterprise(loadFixture('broken-skill'), {
      options: options({ profile: 'agentskills', strict: true }),
      scan: scanWith(['network', 'fs:write']),
      skillNames,
    })
    expect(brief(result.diagnostics)).toEqual([
      'hitl/undeclared-workload warning skills/broken-skill/SKILL.md:null:null',
      'link/broken warning skills/broken-skill/SKILL.md:11:17',
      'link/escape warning skills/broken-skill/SKILL.md:11:49',
      'link/absolute warning skills/broken-skill/SKILL.md:12:13',
      'link/anchor warning skills/broken-skill/SKILL.md:12:42',
      'scenario/unknown-skill warning skills/broken-skill/scenarios/bad.md:5:5',
      'scenario/threshold warning skills/broken-skill/scenarios/bad.md:6:1',
    ])
    expect(result.requiresApproval).toBe(true)
  })

  it('gives no URI or URN without an app, and reports a bad app domain once', () => {
    const skill = loadFixture('payment-gateway')
    const none = checkEnterprise(skill, { options: options(), scan: null, skillNames })
    expect(none.uri).toBeUndefined()
    expect(none.urn).toBeUndefined()
    const bad = checkEnterprise(skill, {
      options: options({ app: { domain: 'localhost', name: 'agent' } }),
      scan: null,
      skillNames,
    })
    expect(brief(bad.diagnostics)).toEqual(['uri/domain warning skills/payment-gateway/SKILL.md:null:null'])
    expect(bad.uri).toBe('castor://skills/retailcortex.com/payments/payment-gateway/1.0.0')
    expect(bad.urn).toBeUndefined()
  })

  it('is deterministic', () => {
    const run = () =>
      JSON.stringify(
        checkEnterprise(loadFixture('broken-skill'), {
          options: options({ app }),
          scan: scanWith(['network']),
          skillNames,
        }),
      )
    expect(run()).toBe(run())
  })
})

describe('hostile input', () => {
  it('never throws on odd frontmatter values, binary files or pathological markdown', () => {
    const skill = makeSkill(
      {
        'SKILL.md': `---\nname: x\n---\n${'[['.repeat(20_000)}${'`'.repeat(5000)}\n`
          + `${'](#'.repeat(10_000)}\n${'<a href='.repeat(5000)}\n${'# h\n'.repeat(2000)}`,
        'references/bin.md': new Uint8Array([0, 255, 1, 2]),
        'references/huge-line.md': `${'x'.repeat(200_000)} [a](b.md)\n`,
        'scenarios/weird.md': '---\n&a [*a, *a]\n---\n',
        'scripts/x.sh': `${'curl \\\n'.repeat(5000)}`,
      },
      { frontmatter: { name: 'x', workload: { nested: true }, version: 1.5, domain: ['a'], category: null } },
    )
    for (const profile of ['enterprise', 'agentskills'] as const) {
      const result = checkEnterprise(skill, {
        options: options({ profile, app }),
        scan: scanWith(['network', 'process', 'secrets']),
        skillNames,
      })
      expect(result.diagnostics.some(d => d.code === 'quality/internal-error')).toBe(false)
      expect(
        result.diagnostics.some(
          d => d.code === 'link/broken' && d.file === 'skills/demo-skill/references/huge-line.md',
        ),
      ).toBe(true)
      expect(result.uri).toBeUndefined()
      expect(result.urn).toBeUndefined()
    }
  })

  it('survives seeded random markdown made of the syntax characters', () => {
    let seed = 42
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648
      return seed % n
    }
    const pieces = [
      '[',
      ']',
      '(',
      ')',
      '!',
      '<',
      '>',
      '`',
      '```',
      '~~~',
      '\\',
      '#',
      '-',
      '=',
      '\n',
      '\n\n',
      ' ',
      '"',
      '\'',
      ':',
      '%',
      '%2',
      '../',
      './',
      '#x',
      'a',
      'SKILL.md',
      'https://h.example/',
      'file:///',
      'CWE-79',
      'CWE-0',
      '<!--',
      '-->',
      '{baseDir}/',
      'curl -X POST ',
      'fetch(',
      '429',
    ]
    for (let round = 0; round < 40; round++) {
      const text = Array.from({ length: 400 }, () => pieces[random(pieces.length)]).join('')
      const skill = makeSkill({
        'SKILL.md': text,
        'references/r.md': text.split('').reverse().join(''),
        'scenarios/s.md': `---\nprompt: p\nthreshold: 0.5\n---\n${text}`,
      })
      const result = checkEnterprise(skill, {
        options: options({ app, strict: true }),
        scan: scanWith(['network']),
        skillNames,
      })
      expect(result.diagnostics.filter(d => d.code === 'quality/internal-error')).toEqual([])
      for (const d of result.diagnostics) {
        if (d.line !== null)
          expect(d.line).toBeGreaterThan(0)
        if (d.column !== null)
          expect(d.column).toBeGreaterThan(0)
      }
    }
  })

  it('turns a checker failure into a diagnostic instead of throwing', () => {
    const skill = makeSkill({ 'references/a.md': '# A\n' })
    const exploding: SkillFile = {
      ...skill.files[0],
      get text(): string {
        throw new Error('boom')
      },
    }
    const broken: SkillSource = { ...skill, files: [exploding, ...skill.files.slice(1)] }
    const result = checkEnterprise(broken, { options: options(), scan: null, skillNames })
    expect(result.diagnostics.filter(d => d.code === 'quality/internal-error').length).toBeGreaterThan(0)
    expect(result.diagnostics[0].message).toMatch(/boom/)
  })
})
