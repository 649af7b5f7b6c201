import type { Diagnostic, ScanResult, Severity, SkillSource } from '../core/types'
import { diagnostic } from '../core/diagnostics'
import { markdownOf } from '../core/markdown'
import { findCweMentions, isKnownCwe } from './cwe'
import { isMarkdown, projectPath } from './text'

/**
 * Invariant 3: a skill whose files do something sensitive (any capability the scanner detected)
 * documents its security checkpoint: a heading containing "Security" in SKILL.md or a reference,
 * or references to real CWE ids there.
 */
export function checkSecurityCheckpoint(
  skill: SkillSource,
  scan: ScanResult | null,
  severity: Severity,
): Diagnostic[] {
  const detected = scan?.capabilities.detected ?? []
  if (detected.length === 0)
    return []
  const docs = skill.files.filter(
    f => isMarkdown(f.path) && f.text !== null && (f === skill.skillMd || f.path.startsWith('references/')),
  )
  for (const file of docs) {
    if (markdownOf(file)!.headings.some(h => /security/i.test(h.text)))
      return []
    if (findCweMentions(file.text!).some(m => isKnownCwe(m.id)))
      return []
  }
  return [
    diagnostic({
      code: 'quality/security-checkpoint',
      severity,
      message: `the skill's files use ${detected.join(', ')} but neither SKILL.md nor references/ document a security`
        + ' checkpoint',
      file: projectPath(skill, skill.skillMd.path),
      skill: skill.name,
      hint:
        'Add a `## Security` section (what the skill touches, what it must never do) citing the relevant CWE ids, '
        + 'e.g. CWE-78 for process spawning.',
    }),
  ]
}
