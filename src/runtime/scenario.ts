// Browser-safe: no Node APIs. Scores an agent's run against a scenario of the manifest (spec §scenarios).
import type { Scenario } from '../core/types'

/** What the agent did for the scenario's prompt. */
export interface ScenarioRun {
  response: string
  /** Names of the skills or tools the agent called. */
  toolCalls: readonly string[]
}

export interface ScenarioScore {
  /** Token-frequency cosine similarity between the response and the reference, 0 to 1. */
  similarity: number
  /** Expected skills absent from the tool calls (only checked when `executes` is true). */
  missingSkills: string[]
  pass: boolean
}

export type ScoredScenario = Pick<Scenario, 'executes' | 'expected_skills' | 'threshold' | 'reference'>

/** Tokens `[a-zA-Z0-9_]+`, lowercased (spec §scenarios). */
export function scenarioTokens(text: string): string[] {
  return (typeof text === 'string' ? (text.match(/[a-zA-Z0-9_]+/g) ?? []) : []).map(t => t.toLowerCase())
}

function frequencies(text: string): Map<string, number> {
  const counts = new Map<string, number>()
  for (const token of scenarioTokens(text)) counts.set(token, (counts.get(token) ?? 0) + 1)
  return counts
}

/** Cosine of the two texts' word-frequency vectors; 0 when either has no token. */
export function cosineSimilarity(a: string, b: string): number {
  const u = frequencies(a)
  const v = frequencies(b)
  let dot = 0
  let uu = 0
  let vv = 0
  for (const [token, n] of u) {
    uu += n * n
    dot += n * (v.get(token) ?? 0)
  }
  for (const n of v.values()) vv += n * n
  if (uu === 0 || vv === 0)
    return 0
  // One square root of the product: sqrt(5) * sqrt(5) would give 5.000000000000001.
  return Math.min(1, dot / Math.sqrt(uu * vv))
}

/**
 * Passes when, for an executing scenario, every expected skill appears in the tool calls, and the
 * response's similarity to the reference reaches the threshold.
 */
export function scoreScenario(scenario: ScoredScenario, run: ScenarioRun): ScenarioScore {
  const similarity = cosineSimilarity(run?.response ?? '', scenario.reference)
  const called = new Set((Array.isArray(run?.toolCalls) ? run.toolCalls : []).filter(c => typeof c === 'string'))
  const missingSkills = scenario.executes
    ? [...new Set(scenario.expected_skills)].filter(name => !called.has(name))
    : []
  return { similarity, missingSkills, pass: missingSkills.length === 0 && similarity >= scenario.threshold }
}
