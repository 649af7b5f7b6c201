import type Picomatch from 'picomatch'
/**
 * Policy for one skill: its root's profile, `strict` and `deny`, and the project's overrides that name it.
 * Overrides are checked once per audit (`checkOverrides`): a bad one is an error, never a silent no-op.
 */
import type { ResolvedOptions, ResolvedOverride } from '../core/options'
import type { Capability, Diagnostic, ManifestOverride } from '../core/types'
import type { SkillReview } from '../scanner'
import type { SkillLocation } from './discover'
import { diagnostic } from '../core/diagnostics'
import { lazy } from '../core/lazy'
import { CAPABILITIES, ruleMeta } from '../scanner'

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

const bare = (rule: string): string => rule.replace(/^scan\//, '')
const waiveHint = 'Waive the one finding you reviewed: `waive: [{ rule, file }]`, with the reason.'
const reasonHint = 'Say why the policy is safe: `reason: \'...\'` (it is listed in check and the manifest).'

/** Every problem of `options.overrides`: each is an error, so a typo never weakens the gate silently. */
export function checkOverrides(options: ResolvedOptions): Diagnostic[] {
  const out: Diagnostic[] = []
  const problem = (i: number, message: string, hint: string): void => {
    out.push(diagnostic({ code: 'options/override', severity: 'error', message: `overrides[${i}]: ${message}`, hint }))
  }
  options.overrides.forEach((o, i) => {
    if (typeof o.reason !== 'string' || !o.reason.trim())
      problem(i, 'has no reason', reasonHint)
    if (!o.skills.length || o.skills.some(s => typeof s !== 'string' || !s))
      problem(i, 'names no skill', 'Give `skills` a skill name or a glob such as `office-*`.')
    for (const cap of o.capabilities) {
      if (!CAPABILITIES.includes(cap as Capability))
        problem(i, `unknown capability "${cap}"`, `Use one of: ${CAPABILITIES.join(', ')}.`)
    }
    for (const rule of Object.keys(o.rules)) {
      const meta = ruleMeta(bare(rule))
      if (!meta)
        problem(i, `unknown rule "${rule}"`, 'Use a rule id that `check` prints, e.g. network_access.')
      else if (meta.kind === 'threat')
        problem(i, `rule "${rule}" finds threats: an override can't change it for a whole skill`, waiveHint)
    }
    for (const w of o.waive) {
      const meta = ruleMeta(w.rule)
      if (!meta || meta.kind !== 'threat')
        problem(i, `waive names "${w.rule}", not a threat rule`, 'Capabilities are reviewed with `capabilities`.')
      if (typeof w.file !== 'string' || !w.file)
        problem(i, `waive of "${w.rule}" names no file`, waiveHint)
    }
  })
  return out
}
