import type { ManifestSkill, SkillsManifest } from '../core/types'

/** Frontmatter value -> strings (a string or a list of strings); anything else -> []. */
export function stringListOf(value: unknown): string[] {
  if (typeof value === 'string')
    return value.trim() ? [value.trim()] : []
  if (!Array.isArray(value))
    return []
  return value
    .filter((v): v is string => typeof v === 'string')
    .map(v => v.trim())
    .filter(Boolean)
}

/** The skills a skill may load (`composed_skills`, top level or under `metadata`), deduplicated, in declared order. */
export function composedSkillsOf(skill: ManifestSkill): string[] {
  const fm = (skill.frontmatter ?? {}) as Record<string, unknown>
  const meta = fm.metadata && typeof fm.metadata === 'object' ? (fm.metadata as Record<string, unknown>) : {}
  return [...new Set(stringListOf(fm.composed_skills ?? meta.composed_skills))]
}

export interface SkillLoadDecision {
  allowed: boolean
  /** Machine code: `ok`, `unknown-skill`, `unknown-parent`, `not-composed`. */
  code: 'ok' | 'unknown-skill' | 'unknown-parent' | 'not-composed'
  reason: string
  skill: ManifestSkill | null
}

/** A declared entry names a skill by name, canonical URI or URN. */
const names = (s: ManifestSkill) => [s.name, s.uri, s.urn].filter((x): x is string => typeof x === 'string')

/**
 * The containment rule of ACS `steps/skillLoad`: loading skill `name` from skill `from` is allowed
 * only if `from` declares it in `composed_skills`. A load with no parent (the agent itself) is
 * allowed for any skill of the manifest; unknown skills are always refused.
 */
export function checkSkillLoad(
  manifest: Pick<SkillsManifest, 'skills'>,
  name: string,
  from?: string | null,
): SkillLoadDecision {
  const skills = Array.isArray(manifest?.skills) ? manifest.skills : []
  const find = (id: string) => skills.find(s => names(s).includes(id)) ?? null
  const target = typeof name === 'string' ? find(name) : null
  if (!target) {
    return {
      allowed: false,
      code: 'unknown-skill',
      reason: `skill "${String(name)}" is not in the manifest`,
      skill: null,
    }
  }
  if (from === undefined || from === null)
    return { allowed: true, code: 'ok', reason: 'loaded by the agent', skill: target }
  const parent = find(from)
  if (!parent) {
    return {
      allowed: false,
      code: 'unknown-parent',
      reason: `loading skill "${String(from)}" is not in the manifest`,
      skill: null,
    }
  }
  if (parent === target)
    return { allowed: true, code: 'ok', reason: 'a skill may reload itself', skill: target }
  const declared = composedSkillsOf(parent)
  if (names(target).some(n => declared.includes(n))) {
    return {
      allowed: true,
      code: 'ok',
      reason: `"${parent.name}" declares "${target.name}" in composed_skills`,
      skill: target,
    }
  }
  return {
    allowed: false,
    code: 'not-composed',
    reason: `"${parent.name}" does not declare "${target.name}" in composed_skills`,
    skill: null,
  }
}

export class SkillLoadRefusedError extends Error {
  readonly code: SkillLoadDecision['code']
  constructor(decision: SkillLoadDecision) {
    super(`skill load refused: ${decision.reason}`)
    this.name = 'SkillLoadRefusedError'
    this.code = decision.code
  }
}

export interface SkillLoader {
  /** The skill, or throws SkillLoadRefusedError when the composition rule forbids it. */
  load: (name: string, from?: string | null) => ManifestSkill
  /** The decision without throwing. */
  check: (name: string, from?: string | null) => SkillLoadDecision
}

/** A loader bound to a manifest that enforces `composed_skills` on every load. */
export function createSkillLoader(manifest: Pick<SkillsManifest, 'skills'>): SkillLoader {
  return {
    check: (name, from) => checkSkillLoad(manifest, name, from),
    load: (name, from) => {
      const decision = checkSkillLoad(manifest, name, from)
      if (!decision.allowed || !decision.skill)
        throw new SkillLoadRefusedError(decision)
      return decision.skill
    },
  }
}
