import type { ScenarioRun, ScenarioScore } from './runtime/scenario'
/**
 * `unplugin-skills/vitest`: every scenario of a skills manifest becomes a Vitest test case.
 *
 *   import manifest from '../skills_manifest.json'
 *   import { defineScenarioTests } from 'unplugin-skills/vitest'
 *   defineScenarioTests(manifest, async prompt => myAgent.run(prompt))
 *
 * `vitest` is imported here, so this entry must stay external to the build (optional peer dependency).
 */
import { describe, expect, it } from 'vitest'
import { scoreScenario } from './runtime/scenario'

/** A manifest scenario, loosely typed so a JSON import of skills_manifest.json fits. */
export interface ManifestScenarioLike {
  file: string
  prompt: string
  executes: boolean
  expected_skills: readonly string[]
  threshold: number
  reference: string
  metadata?: unknown
}

export interface ManifestLike {
  skills: ReadonlyArray<{ name: string, scenarios?: readonly ManifestScenarioLike[] }>
}

/** The agent under test: the prompt in, its answer and the skills/tools it called out. */
export type ScenarioAgent = (
  prompt: string,
  context: { skill: string, scenario: ManifestScenarioLike },
) => ScenarioRun | Promise<ScenarioRun>

export interface ScenarioTestOptions {
  /** Only these skills' scenarios. */
  skills?: readonly string[]
  /** Per-test timeout in ms (agents are slow). */
  timeout?: number
  /** Called with each score, e.g. to log similarities. */
  onScore?: (score: ScenarioScore, context: { skill: string, scenario: ManifestScenarioLike }) => void
  /** Test API to register with; defaults to Vitest's `describe`/`it` (inject `it.fails`, Jest's, ...). */
  api?: {
    describe: (name: string, fn: () => void) => void
    it: (name: string, fn: () => Promise<void>, timeout?: number) => void
  }
}

/** Registers one `describe` per skill with scenarios and one test per scenario; returns the count. */
export function defineScenarioTests(
  manifest: ManifestLike,
  agent: ScenarioAgent,
  options: ScenarioTestOptions = {},
): number {
  const api = options.api ?? { describe, it }
  const only = options.skills ? new Set(options.skills) : null
  let count = 0
  for (const skill of manifest.skills) {
    const scenarios = skill.scenarios ?? []
    if (scenarios.length === 0 || (only && !only.has(skill.name)))
      continue
    count += scenarios.length
    api.describe(`skill ${skill.name}`, () => {
      for (const scenario of scenarios) {
        api.it(
          scenario.file,
          async () => {
            const context = { skill: skill.name, scenario }
            const run = await agent(scenario.prompt, context)
            const score = scoreScenario({ ...scenario, expected_skills: [...scenario.expected_skills] }, run)
            options.onScore?.(score, context)
            expect(score.missingSkills, 'expected skills missing from the tool calls').toEqual([])
            expect(
              score.similarity,
              `similarity to the reference below the threshold ${scenario.threshold}`,
            ).toBeGreaterThanOrEqual(scenario.threshold)
          },
          options.timeout,
        )
      }
    })
  }
  return count
}
