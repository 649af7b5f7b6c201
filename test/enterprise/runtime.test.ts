import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ApprovalRequiredError, getInstructions, needsApproval } from '../../src/runtime/approval'
import { cosineSimilarity, scenarioTokens, scoreScenario } from '../../src/runtime/scenario'

describe('token-frequency cosine similarity', () => {
  it('tokenizes [a-zA-Z0-9_]+ and lowercases', () => {
    expect(scenarioTokens('Snake_case, x-y! Z9 café')).toEqual(['snake_case', 'x', 'y', 'z9', 'caf'])
  })

  it('matches hand-computed values', () => {
    // u = (a:2, b:1), v = (a:1, b:2): 4 / (√5 · √5) = 0.8
    expect(cosineSimilarity('a a b', 'a b b')).toBe(0.8)
    // the, cat shared: 2 / (√3 · √3)
    expect(cosineSimilarity('The cat sat', 'the CAT ran.')).toBe(0.6666666666666666)
    // u = (x:3, y:1), v = (x:1, y:2, z:1): 5 / (√10 · √6)
    expect(cosineSimilarity('x x x y', 'x y y z')).toBe(0.6454972243679028)
    // 1 / (√4 · √1)
    expect(cosineSimilarity('a b c d', 'A')).toBe(0.5)
    expect(cosineSimilarity('same words here', 'here words SAME')).toBe(1)
    expect(cosineSimilarity('alpha beta', 'gamma delta')).toBe(0)
    expect(cosineSimilarity('', 'anything')).toBe(0)
    expect(cosineSimilarity('!!!', '???')).toBe(0)
  })
})

describe('scoreScenario', () => {
  const scenario = { executes: true, expected_skills: ['bazel', 'git'], threshold: 0.8, reference: 'a a b' }

  it('passes when every expected skill was called and the similarity reaches the threshold', () => {
    expect(scoreScenario(scenario, { response: 'a b b', toolCalls: ['git', 'bazel', 'other'] })).toEqual({
      similarity: 0.8,
      missingSkills: [],
      pass: true,
    })
  })

  it('fails on a missing skill, listing it', () => {
    expect(scoreScenario(scenario, { response: 'a a b', toolCalls: ['bazel'] })).toEqual({
      similarity: 1,
      missingSkills: ['git'],
      pass: false,
    })
  })

  it('fails below the threshold', () => {
    expect(scoreScenario(scenario, { response: 'The cat sat', toolCalls: ['bazel', 'git'] })).toEqual({
      similarity: 0,
      missingSkills: [],
      pass: false,
    })
    expect(
      scoreScenario({ ...scenario, threshold: 0.81 }, { response: 'a b b', toolCalls: ['bazel', 'git'] }).pass,
    ).toBe(false)
  })

  it('does not check tool calls when the scenario does not execute', () => {
    expect(scoreScenario({ ...scenario, executes: false }, { response: 'a b b', toolCalls: [] })).toEqual({
      similarity: 0.8,
      missingSkills: [],
      pass: true,
    })
  })

  it('tolerates malformed runs', () => {
    const run = { response: undefined, toolCalls: [null, 'git'] } as unknown as {
      response: string
      toolCalls: string[]
    }
    expect(scoreScenario(scenario, run)).toEqual({ similarity: 0, missingSkills: ['bazel'], pass: false })
  })
})

describe('approval guard', () => {
  const read = { name: 'lister', body: 'list things', requiresApproval: false, workload: 'read' }
  const write = { name: 'deployer', body: 'deploy things', requiresApproval: true, workload: 'write' }

  it('hands out read skills without asking', async () => {
    await expect(getInstructions(read)).resolves.toBe('list things')
  })

  it('refuses a write skill without an approver, or when it does not approve', async () => {
    await expect(getInstructions(write)).rejects.toMatchObject({
      name: 'ApprovalRequiredError',
      code: 'SKILL_APPROVAL_REQUIRED',
      skill: 'deployer',
      reason: 'no-approver',
    })
    await expect(getInstructions(write, { approve: () => false })).rejects.toMatchObject({ reason: 'denied' })
    await expect(getInstructions(write, { approve: async () => 'yes' as unknown as boolean })).rejects.toMatchObject({
      reason: 'denied',
    })
    const failure = new Error('approval service down')
    const error = await getInstructions(write, {
      approve: async () => {
        throw failure
      },
    }).catch(e => e)
    expect(error).toBeInstanceOf(ApprovalRequiredError)
    expect(error.reason).toBe('approver-failed')
    expect(error.cause).toBe(failure)
  })

  it('hands out a write skill once approved, passing the skill to the approver', async () => {
    const seen: string[] = []
    await expect(
      getInstructions(write, {
        approve: async (s) => {
          seen.push(s.name)
          return true
        },
      }),
    ).resolves.toBe('deploy things')
    expect(seen).toEqual(['deployer'])
  })

  it('fails closed on a write workload whose requiresApproval flag is missing', () => {
    expect(needsApproval({ name: 'x', body: '', workload: 'write' })).toBe(true)
    expect(needsApproval({ name: 'x', body: '' })).toBe(false)
  })
})

describe('runtime modules stay browser-safe', () => {
  it('import nothing from Node', () => {
    for (const file of ['scenario.ts', 'approval.ts']) {
      const source = fs.readFileSync(path.resolve(__dirname, '../../src/runtime', file), 'utf8')
      const imports = [...source.matchAll(/^import .* from '([^']+)'/gm)].map(m => m[1])
      expect(
        imports.filter(i => i.startsWith('node:') || !i.startsWith('.')),
        file,
      ).toEqual([])
      expect(source).not.toMatch(/\b(?:Buffer|process|require)\b/)
    }
  })
})
