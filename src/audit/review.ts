/**
 * The capability review `unplugin-skills lock` prints: per skill, the capabilities the lock records, those the
 * skill does not declare, and what changed since the previous lock (the review a browser extension update gets
 * when it asks for new permissions).
 */
import type { ManifestSkill } from '../core/types'
import type { SkillDrift } from './lockfile'
import { capabilityChange } from './lockfile'

export function capabilityReview(
  skills: readonly ManifestSkill[],
  drift: readonly SkillDrift[],
  /** Every recorded capability is new to the lock: it was just created, or upgraded from version 1. */
  created: boolean,
): string {
  const byName = new Map(drift.map(d => [d.name, d]))
  const rows = skills.map((s) => {
    const { declared, detected } = s.capabilities
    const d = byName.get(s.name)
    const change = created || d?.change === 'added'
      ? (detected.length ? 'new' : '')
      : d?.capabilities ? capabilityChange(d.capabilities) : ''
    return [
      s.name,
      detected.join(', ') || 'none',
      detected.filter(c => !declared.includes(c)).join(', '),
      change,
    ]
  })
  for (const d of drift) {
    if (d.change === 'removed')
      rows.push([d.name, '(removed)', '', 'removed'])
  }
  const head = ['skill', 'capabilities', 'undeclared', 'change']
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map(r => r[i]!.length)))
  const line = (cells: string[]): string => `  ${cells.map((c, i) => c.padEnd(widths[i]!)).join('  ')}`.trimEnd()
  const changed = rows.filter(r => r[3]).length
  const note = changed ? `, ${changed} ${created ? 'with capabilities' : 'changed'}` : ''
  return [
    `capability review: what the lock records for ${skills.length} skill(s)${note}`,
    line(head),
    ...rows.map(line),
    '',
  ].join('\n')
}

/**
 * What the project set aside, for `check` to list after its report: the overrides that name a skill and every
 * suppression (a `skills-ignore-next-line` comment or a waiver), each with its reason. Empty when there is none.
 */
export function policyListing(skills: readonly ManifestSkill[]): string {
  const overrides: string[] = []
  const suppressions: string[] = []
  for (const s of skills) {
    for (const o of s.overrides) {
      const parts = [
        o.capabilities.length ? `capabilities ${o.capabilities.join(', ')}` : '',
        Object.keys(o.rules).length ? `rules ${Object.entries(o.rules).map(([r, v]) => `${r}: ${v}`).join(', ')}` : '',
        o.waive.length ? `waives ${o.waive.map(w => `${w.rule} in ${w.file}`).join(', ')}` : '',
      ].filter(Boolean)
      overrides.push(`  ${s.name}: ${parts.join('; ') || 'nothing'} (${o.reason})`)
    }
    for (const x of s.suppressions)
      suppressions.push(`  ${x.file}:${x.line} ${x.rule}${x.via ? ' (override)' : ''}: ${x.reason}`)
  }
  const out: string[] = []
  if (overrides.length)
    out.push(`overrides (${overrides.length}):`, ...overrides)
  if (suppressions.length)
    out.push(`suppressed findings (${suppressions.length}):`, ...suppressions)
  return out.length ? `${out.join('\n')}\n` : ''
}
