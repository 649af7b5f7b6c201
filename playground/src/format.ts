/** Pure formatting helpers shared by the views (kept DOM-free so they are unit-testable). */

export type Severity = 'error' | 'warning' | 'info'
export const SEVERITIES: readonly Severity[] = ['error', 'warning', 'info']

/** The first 12 hex digits: enough to tell versions apart at a glance, like a short git hash. */
export const shortDigest = (digest: string): string => digest.slice(0, 12)

export function countBySeverity(findings: ReadonlyArray<{ severity: string }>): Record<Severity, number> {
  const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 }
  for (const f of findings) {
    if (f.severity in counts)
      counts[f.severity as Severity]++
  }
  return counts
}

export function formatBytes(size: number): string {
  if (size < 1024)
    return `${size} B`
  if (size < 1024 * 1024)
    return `${(size / 1024).toFixed(1)} kB`
  return `${(size / 1024 / 1024).toFixed(1)} MB`
}

export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`

/** Severity word as shown on badges: "info" findings are notes, as in the CLI summary. */
export function severityLabel(severity: Severity, n: number): string {
  return severity === 'info' ? plural(n, 'note') : plural(n, severity)
}

/** A DOM id for a file of a skill (anchors of relative links in the instructions). */
export const fileAnchor = (path: string): string => `file-${path.replace(/[^\w-]+/g, '-')}`

/** Splits a link target from a skill into its file path (relative to the skill root) and fragment. */
export function skillRelativeTarget(href: string): string | null {
  if (/^[a-z][a-z\d+.-]*:/i.test(href) || href.startsWith('//') || href.startsWith('/'))
    return null
  const path = href.split('#')[0].replace(/^\.\//, '')
  if (!path || path.split('/').includes('..'))
    return null
  return path
}

/** Only web links leave the page; `javascript:`, `data:` and friends render as text. */
export const isWebLink = (href: string): boolean => /^(?:https?:\/\/|mailto:)/i.test(href)

/** Words too common to say anything about a skill. */
const STOP_WORDS = new Set(
  [
    'a an and are as at be by can do for from how i in is it its my of on or our should so that the this to too',
    'was what when why with you your',
  ].join(' ').split(' '),
)

/**
 * Fallback search over the summaries: share of query words found in name, description (and tags, triggers
 * when given).
 */
export function textMatches<T extends { name: string, description: string, frontmatter?: Record<string, unknown> }>(
  skills: readonly T[],
  query: string,
  k: number,
): Array<{ name: string, score: number }> {
  const words = [...new Set(query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])].filter(w => !STOP_WORDS.has(w))
  if (!words.length)
    return []
  const scored = skills.map((skill) => {
    const fm = skill.frontmatter ?? {}
    const list = (v: unknown): string => (Array.isArray(v) ? v.filter(x => typeof x === 'string').join(' ') : '')
    const hay = `${skill.name} ${skill.description} ${list(fm.tags)} ${list(fm.triggers)}`.toLowerCase()
    const hits = words.filter(w => hay.includes(w)).length
    return { name: skill.name, score: Math.round((hits / words.length) * 1000) / 1000 }
  })
  return scored
    .filter(s => s.score > 0)
    .sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .slice(0, k)
}
