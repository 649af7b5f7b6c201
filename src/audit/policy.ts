import type Picomatch from 'picomatch'
/**
 * Policy for one skill: its root's profile, `strict` and `deny`, and the project's overrides that name it.
 * Rule ids in the options are checked once (`ruleProblems`): a bad one is an error, never a silent no-op.
 */
import type { ResolvedOptions, ResolvedOverride } from '../core/options'
import type { ManifestOverride } from '../core/types'
import type { SkillReview } from '../scanner'
import type { SkillLocation } from './discover'
import { lazy } from '../core/lazy'
import { didYouMean } from '../core/validate-options'
import { META_RULES, ruleMeta, RULES } from '../scanner/catalog'

export interface SkillPolicy {
  /** The options this skill is checked with: its root's profile, `strict` and `deny`. */
  options: ResolvedOptions
  review: SkillReview
  /** The overrides that name this skill, as configured (listed in `check` and the manifest). */
  overrides: ManifestOverride[]
}

const picomatch = lazy<typeof Picomatch>('picomatch')
const matchers = new WeakMap<ResolvedOverride, (name: string) => boolean>()

function matches(override: ResolvedOverride, name: string): boolean {
  let match = matchers.get(override)
  if (!match) {
    // A plain name needs no glob matcher (loaded only when an override uses a glob).
    const names = new Set(override.skills)
    match = override.skills.some(s => /[*?[\]{}!()]/.test(s))
      ? picomatch()(override.skills, { dot: true })
      : (name: string) => names.has(name)
    matchers.set(override, match)
  }
  return match(name)
}

/** The settings a skill found under `location.root` and named `name` is checked with. */
export function skillPolicy(options: ResolvedOptions, location: SkillLocation, name: string): SkillPolicy {
  const { root } = location
  const effective
    = root.profile === options.profile && root.strict === options.strict && root.deny.length === options.deny.length
      ? options
      : { ...options, profile: root.profile, strict: root.strict, deny: root.deny }
  const review: SkillReview = { capabilities: [], rules: {}, waive: [] }
  const overrides: ManifestOverride[] = []
  for (const o of options.overrides) {
    if (!matches(o, name))
      continue
    overrides.push({ skills: o.skills, capabilities: o.capabilities, rules: o.rules, waive: o.waive, reason: o.reason })
    for (const capability of o.capabilities) review.capabilities.push({ capability, reason: o.reason })
    Object.assign(review.rules, o.rules)
    for (const w of o.waive) review.waive.push({ ...w, reason: o.reason })
  }
  return { options: effective, review, overrides }
}

const waiveHint = 'waive the one finding you reviewed instead: `waive: [{ rule, file }]`, with the reason'

/**
 * What the options schema can't know: rule ids (built-in, meta and the project's custom rules, with or without
 * `scan/`), and that a threat is waived per finding, never switched for a whole skill.
 */
export function ruleProblems(options: ResolvedOptions): string[] {
  const problems: string[] = []
  const custom = (options.scanner.custom ?? []).map(c => c.id)
  const known = [...RULES.map(r => r.id), ...META_RULES.map(r => r.id), ...custom]
  const unknown = (at: string, rule: string): void => {
    const near = didYouMean(rule, known)
    problems.push(`${at}: unknown rule "${rule}"${near ? `; did you mean "${near}"?` : ''}`)
  }
  for (const rule of Object.keys(options.scanner.rules ?? {})) {
    if (!known.includes(rule))
      unknown(`scanner.rules.${rule}`, rule)
  }
  options.overrides.forEach((o, i) => {
    for (const rule of Object.keys(o.rules)) {
      const meta = ruleMeta(rule)
      if (!meta && !custom.includes(rule))
        unknown(`overrides.${i}.rules.${rule}`, rule)
      else if (!meta || meta.kind === 'threat')
        problems.push(`overrides.${i}.rules.${rule}: a threat rule can't be changed for a whole skill; ${waiveHint}`)
    }
    o.waive.forEach((w, j) => {
      const meta = ruleMeta(w.rule)
      if (!meta && !custom.includes(w.rule))
        unknown(`overrides.${i}.waive.${j}.rule`, w.rule)
      else if (meta && meta.kind !== 'threat')
        problems.push(`overrides.${i}.waive.${j}.rule: "${w.rule}" is not a threat rule; list the capability instead`)
    })
  })
  return problems
}
