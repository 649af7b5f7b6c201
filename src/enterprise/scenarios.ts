import type { ErrorObject } from 'ajv'
import type { Diagnostic, Scenario, Severity, SkillSource } from '../core/types'
import scenarioSchema from '../../schemas/scenario.schema.json'
import { diagnostic } from '../core/diagnostics'
import { parseFrontmatter } from '../core/frontmatter'
import { scenario } from '../generated/validators.js'
import { isMarkdown, projectPath, quote } from './text'

export interface ScenarioReport {
  diagnostics: Diagnostic[]
  /** The valid scenarios, defaults applied, in file order. */
  scenarios: Scenario[]
}

const FIELDS = new Set(Object.keys(scenarioSchema.properties))
const FIELD_HINTS: Record<string, string> = {
  prompt: '`prompt: "How do I ...?"`: the request sent to the agent.',
  executes: '`executes: true` asserts that the expected skills are called.',
  expected_skills: '`expected_skills: [skill-name, ...]`: names of skills of this build.',
  threshold: '`threshold: 0.7`: a number from 0 to 1.',
  metadata: '`metadata:` followed by indented `key: value` lines.',
}

const validate = (data: unknown): ErrorObject[] => (scenario(data) ? [] : (scenario.errors ?? []))

/**
 * One scenario file checked in everything but its expected skills, which only the whole build can
 * judge: the engine checks each skill once, as it reads it, and settles the names at the end.
 */
export interface ScenarioDraft {
  /** Findings that stand whatever the skill names are. */
  diagnostics: Diagnostic[]
  /** Each well-formed expected skill and where it is written; the finding is made only if the build lacks it. */
  names: Array<{ name: string, line: number | null, column: number | null }>
  /** Where and how an unknown name is reported. */
  file: string
  skill: string
  severity: Severity
  /** Findings that are only reported when every expected skill exists. */
  then: Diagnostic[]
  /** The scenario, when nothing but unknown names can still reject it. */
  scenario: Scenario | null
}

/**
 * Validates `scenarios/*.md`: frontmatter (parsed by the engine's safe parser, checked against
 * schemas/scenario.schema.json), expected skills that exist in this build, a non-empty reference.
 * `severity` is `error` in the enterprise profile, `warning` in agentskills.
 */
export function checkScenarios(
  skill: SkillSource,
  skillNames: ReadonlySet<string>,
  severity: Severity,
): ScenarioReport {
  return settleScenarios(draftScenarios(skill, severity), skillNames)
}

/**
 * The expected skills of each draft against the build's names: findings and the scenarios that stand, in
 * file order.
 */
export function settleScenarios(drafts: readonly ScenarioDraft[], skillNames: ReadonlySet<string>): ScenarioReport {
  const diagnostics: Diagnostic[] = []
  const scenarios: Scenario[] = []
  for (const draft of drafts) {
    diagnostics.push(...draft.diagnostics)
    const unknown = draft.names.filter(n => !skillNames.has(n.name))
    for (const n of unknown) diagnostics.push(unknownSkill(draft, n))
    if (unknown.length)
      continue
    diagnostics.push(...draft.then)
    if (draft.scenario)
      scenarios.push(draft.scenario)
  }
  return { diagnostics, scenarios }
}

function unknownSkill(draft: ScenarioDraft, at: ScenarioDraft['names'][number]): Diagnostic {
  return diagnostic({
    code: 'scenario/unknown-skill',
    severity: draft.severity,
    message: `expected skill ${quote(at.name)} is not a skill of this build`,
    file: draft.file,
    line: at.line,
    column: at.column,
    skill: draft.skill,
    hint: 'List names of skills the build discovers (their `name` field).',
  })
}

/** Every check of `scenarios/*.md` that doesn't need the other skills' names. */
export function draftScenarios(skill: SkillSource, severity: Severity): ScenarioDraft[] {
  const drafts: ScenarioDraft[] = []
  for (const file of skill.files) {
    if (!file.path.startsWith('scenarios/') || !isMarkdown(file.path))
      continue
    const where = projectPath(skill, file.path)
    const draft: ScenarioDraft = {
      diagnostics: [],
      names: [],
      file: where,
      skill: skill.name,
      severity,
      then: [],
      scenario: null,
    }
    drafts.push(draft)
    let out = draft.diagnostics
    const report = (
      code: string,
      message: string,
      pos: { line: number, column: number } | null,
      hint: string | null = null,
      level = severity,
    ): void => {
      out.push(
        diagnostic({
          code,
          severity: level,
          message,
          file: where,
          line: pos?.line ?? null,
          column: pos?.column ?? null,
          skill: skill.name,
          hint,
        }),
      )
    }
    if (file.text === null) {
      report('scenario/encoding', 'scenario is not UTF-8 text', null, 'Save the scenario as UTF-8 markdown.')
      continue
    }

    const parsed = parseFrontmatter(file.text)
    for (const issue of parsed.diagnostics) {
      report(
        `scenario/${issue.code.replace(/^frontmatter\//, '')}`,
        issue.message.replace(/SKILL\.md/g, file.path),
        issue,
        issue.hint,
      )
    }
    const data = parsed.data
    if (!data) {
      if (parsed.diagnostics.length === 0)
        report('scenario/frontmatter', 'scenario has no frontmatter', { line: 1, column: 1 })
      continue
    }
    const locate = (key: string): { line: number, column: number } | null =>
      parsed.locate(key) ?? parsed.locate(key.split('.')[0])

    let valid = true
    for (const error of validate(data)) {
      const { key, path } = errorField(error)
      report(
        `scenario/${key.replace(/_/g, '-')}`,
        schemaMessage(error, path),
        error.keyword === 'required' ? { line: 1, column: 1 } : locate(path),
        FIELD_HINTS[key] ?? null,
      )
      valid = false
    }
    for (const key of Object.keys(data)) {
      if (!FIELDS.has(key)) {
        report(
          'scenario/unknown-key',
          `unknown scenario field ${quote(key)} (kept under metadata)`,
          locate(key),
          `Scenario fields: ${[...FIELDS].join(', ')}.`,
          'warning',
        )
      }
    }
    const listed = Array.isArray(data.expected_skills) ? data.expected_skills : []
    listed.forEach((name, i) => {
      // Malformed names are the schema's finding already.
      if (typeof name !== 'string' || !/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(name))
        return
      const at = locate(`expected_skills.${i}`)
      draft.names.push({ name, line: at?.line ?? null, column: at?.column ?? null })
    })
    if (!valid)
      continue

    out = draft.then
    const expected = listed as string[]
    const executes = (data.executes as boolean | undefined) ?? false
    if (executes && expected.length === 0) {
      report(
        'scenario/expected-skills',
        '`executes: true` but `expected_skills` is empty: no tool call is asserted',
        locate('executes'),
        'List the skills the agent must call.',
        'warning',
      )
    }
    const reference = parsed.body.trim()
    if (reference === '') {
      report(
        'scenario/reference',
        'scenario has no reference outcome (its markdown body is empty)',
        { line: parsed.bodyLine, column: 1 },
        'Write the expected answer below the frontmatter: it is what the response is scored against.',
      )
      continue
    }

    const metadata: Record<string, unknown> = { ...(data.metadata as Record<string, unknown> | undefined) }
    for (const key of Object.keys(data)) {
      if (!FIELDS.has(key) && !(key in metadata))
        metadata[key] = data[key]
    }
    draft.scenario = {
      file: file.path,
      prompt: data.prompt as string,
      executes,
      expected_skills: [...expected],
      threshold: data.threshold as number,
      metadata,
      reference,
    }
  }
  return drafts
}

/** The top-level field an ajv error is about, and its dotted path. */
function errorField(error: ErrorObject): { key: string, path: string } {
  if (error.keyword === 'required') {
    const key = String((error.params as { missingProperty: string }).missingProperty)
    return { key, path: key }
  }
  const path = error.instancePath
    .split('/')
    .slice(1)
    .map(s => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.')
  return { key: path.split('.')[0] || 'frontmatter', path }
}

const article = (type: string): string => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`)

function schemaMessage(error: ErrorObject, path: string): string {
  switch (error.keyword) {
    case 'required':
      return `scenario is missing \`${path}\``
    case 'type':
      return `\`${path}\` must be ${article((error.params as { type: string }).type)}`
    case 'minimum':
    case 'maximum':
      return `\`${path}\` must be between 0 and 1`
    case 'uniqueItems':
      return `\`${path}\` lists a skill twice`
    default:
      return `\`${path}\` ${error.message ?? 'is invalid'}`
  }
}
