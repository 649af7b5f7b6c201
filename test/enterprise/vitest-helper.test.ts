import type { ScenarioRun, ScenarioScore } from '../../src/runtime/scenario'
import type { ManifestLike, ScenarioAgent } from '../../src/vitest'
import { afterAll, describe, expect, it } from 'vitest'
import { checkEnterprise } from '../../src/enterprise'
import { defineScenarioTests } from '../../src/vitest'
import { loadFixture, options } from './helpers'

// A manifest built the way the engine builds it: scenarios parsed from the fixture skill.
const skill = loadFixture('payment-gateway')
const { scenarios } = checkEnterprise(skill, {
  options: options(),
  scan: null,
  skillNames: new Set(['payment-gateway']),
})
const manifest: ManifestLike = {
  skills: [
    { name: 'payment-gateway', scenarios },
    { name: 'no-scenarios', scenarios: [] },
  ],
}

// An agent that answers with the reference outcome and calls the skill.
const goodAgent: ScenarioAgent = async (prompt, { skill, scenario }) => {
  expect(prompt).toBe(scenario.prompt)
  return { response: scenario.reference, toolCalls: [skill] }
}

const scores: Array<[string, ScenarioScore]> = []

describe('defineScenarioTests with a compliant agent', () => {
  const count = defineScenarioTests(manifest, goodAgent, {
    onScore: (score, ctx) => scores.push([ctx.scenario.file, score]),
  })
  it('registered one test per scenario', () => {
    expect(count).toBe(2)
  })
})

describe('defineScenarioTests with agents that must fail (it.fails)', () => {
  defineScenarioTests(manifest, async () => ({ response: 'something unrelated', toolCalls: ['payment-gateway'] }), {
    api: { describe, it: it.fails },
  })
  // Only the executing scenario asserts tool calls (refund.md has `executes: false`).
  const executing = { skills: [{ name: 'payment-gateway', scenarios: scenarios.filter(s => s.executes) }] }
  defineScenarioTests(executing, async (_p, { scenario }) => ({ response: scenario.reference, toolCalls: [] }), {
    api: { describe, it: it.fails },
  })
})

describe('what a failing scenario reports', () => {
  const collected: Array<{ name: string, fn: () => Promise<void> }> = []
  const api = {
    describe: (_: string, fn: () => void) => fn(),
    it: (name: string, fn: () => Promise<void>) => void collected.push({ name, fn }),
  }
  const run = (agent: ScenarioAgent) => {
    collected.length = 0
    defineScenarioTests(manifest, agent, { api })
    return collected
  }

  it('names tests by scenario file and filters by skill', () => {
    expect(run(goodAgent).map(t => t.name)).toEqual(['scenarios/charge-card.md', 'scenarios/refund.md'])
    expect(defineScenarioTests(manifest, goodAgent, { api, skills: ['other'] })).toBe(0)
  })

  it('fails on missing tool calls, then on low similarity', async () => {
    const [charge] = run(async (_p, { scenario }): Promise<ScenarioRun> => ({
      response: scenario.reference,
      toolCalls: ['other-tool'],
    }))
    await expect(charge.fn()).rejects.toThrow('expected skills missing from the tool calls')
    const [, refund] = run(async () => ({ response: 'unrelated words', toolCalls: [] }))
    await expect(refund.fn()).rejects.toThrow('similarity to the reference below the threshold 0.3')
  })
})

afterAll(() => {
  // The compliant agent's runs scored a perfect match.
  expect(scores).toEqual([
    ['scenarios/charge-card.md', { similarity: 1, missingSkills: [], pass: true }],
    ['scenarios/refund.md', { similarity: 1, missingSkills: [], pass: true }],
  ])
})
