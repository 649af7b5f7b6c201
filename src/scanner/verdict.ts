/**
 * The severity policy: what a finding's kind, the skill's declaration, the profile, `deny` and the project's
 * overrides make of it. A capability (what a skill can do) is a fact to review; a threat (what an attack tries
 * to do) is a verdict that nothing the skill declares can lower.
 */
import type { Waiver } from '../core/options'
import type { Capability, FindingKind, Profile, Severity } from '../core/types'
import type { RawFinding, RuleInfo } from './types'
import { SEVERITY_RANK } from '../core/diagnostics'

/** The settings one skill is judged by. */
export interface Policy {
  profile: Profile
  deny: ReadonlySet<Capability>
  /** Declared in the frontmatter (`capabilities`, `allowed-tools`). */
  declared: ReadonlySet<Capability>
  /** Reviewed by a project override, with the override's reason. */
  reviewed: ReadonlyMap<Capability, string>
  /** Rule severities: `scanner.rules`, then the skill's overrides (capability and meta rules only). */
  rules: Readonly<Record<string, Severity | 'off'>>
  /** Threat findings waived one by one. */
  waive: ReadonlyArray<Waiver & { reason: string }>
}

/** A finding with its verdict. */
export interface Judged extends RawFinding {
  severity: Severity
  kind: FindingKind | undefined
  hint: string | null
  /** A denied capability: no suppression comment can hide it. */
  denied: boolean
  /** Capability findings folded into this one (see `foldCapabilities`). */
  count?: number
  locations?: Array<{ line: number, column: number }>
}

export const moreSevere = (a: Severity, b: Severity): boolean => SEVERITY_RANK[a] < SEVERITY_RANK[b]

/** The verdict on one finding, or null when its rule is off. */
export function judge(f: RawFinding, meta: RuleInfo | undefined, policy: Policy): Judged | null {
  const setting = policy.rules[f.rule]
  if (setting === 'off')
    return null
  const kind = meta?.kind
  const cap = meta?.capability
  const hint = meta?.hint ?? null
  const judged = (severity: Severity, note = '', hintText = hint, denied = false): Judged =>
    ({ ...f, severity, kind, hint: hintText, denied, message: f.message + note })
  if (kind === 'capability' && cap) {
    if (policy.deny.has(cap))
      return judged('error', ` (capability "${cap}" is denied by the project)`, hint, true)
    if (f.cautionary)
      return judged('info', ' (quoted in a markdown warning; reported for review)')
    if (policy.declared.has(cap)) {
      // The general hint asks to declare the capability: this use already is, so say what the note is for.
      return judged('info', ` (declared capability "${cap}")`, `A declared use of "${cap}"; listed for reviewers.`)
    }
    const reason = policy.reviewed.get(cap)
    if (reason !== undefined)
      return judged('info', ` (capability "${cap}" reviewed by an override: ${reason})`, null)
    if (setting)
      return judged(setting)
    // Undeclared: the spec's least-privilege manifest makes it an error in enterprise, a warning elsewhere.
    const base = f.severity ?? 'error'
    return judged(policy.profile === 'enterprise' ? base : moreSevere(base, 'warning') ? 'warning' : base)
  }
  const base = setting ?? f.severity ?? meta?.severity ?? 'warning'
  if (f.cautionary && kind === 'threat') {
    // A governing "never do this" may lower an error to a warning, never hide it.
    if (base === 'error')
      return judged('warning', ' (quoted in a warning context; reported for review)')
    return judged(base)
  }
  if (f.cautionary)
    return judged('info', ' (quoted in a markdown warning; reported for review)')
  return judged(base)
}

/** The waiver that covers a threat finding, if any. */
export function waiverOf(f: Judged, policy: Policy): (Waiver & { reason: string }) | undefined {
  if (f.kind !== 'threat')
    return undefined
  return policy.waive.find(w => w.rule === f.rule && w.file === f.path)
}

/** How many lines a folded capability finding's message names, and how many locations it keeps. */
const SHOWN = 3
const KEPT = 10

/**
 * Capability findings once per file, rule and severity: the first location, a count and the next few lines.
 * Threat findings stay one per line. `findings` is sorted by path, line and column.
 */
export function foldCapabilities(findings: readonly Judged[]): Judged[] {
  const out: Judged[] = []
  const groups = new Map<string, { first: Judged, lines: number[], columns: number[] }>()
  for (const f of findings) {
    if (f.kind !== 'capability') {
      out.push(f)
      continue
    }
    const key = `${f.path}\0${f.rule}\0${f.severity}`
    const group = groups.get(key)
    if (group) {
      group.lines.push(f.line)
      group.columns.push(f.column)
      continue
    }
    const fresh = { first: { ...f }, lines: [f.line], columns: [f.column] }
    groups.set(key, fresh)
    out.push(fresh.first)
  }
  for (const { first, lines, columns } of groups.values()) {
    if (lines.length < 2)
      continue
    const shown = lines.slice(0, SHOWN).join(', ')
    const more = lines.length > SHOWN ? `, +${lines.length - SHOWN} more` : ''
    first.message += ` (${lines.length} uses in this file: lines ${shown}${more})`
    first.count = lines.length
    first.locations = lines.slice(0, KEPT).map((line, i) => ({ line, column: columns[i]! }))
  }
  return out
}
