import type { Diagnostic, ScanResult, Severity, SkillSource } from '../core/types'
import { diagnostic } from '../core/diagnostics'
import { filesUnder, isMarkdown, lineIndex, projectPath } from './text'

/** Code that makes HTTP requests (scripts and examples). */
const HTTP_CALL = new RegExp(
  [
    String.raw`\bfetch\s*\(`,
    String.raw`\baxios\b`,
    String.raw`\brequests\.[A-Za-z_]+`,
    String.raw`\bcurl\b`,
    String.raw`\bhttps?\.(?:request|get)\s*\(`,
    String.raw`\bhttpx\.[A-Za-z_]+`,
    String.raw`\burlopen\s*\(`,
    String.raw`\bwget\b`,
  ].join('|'),
)

/** Evidence of 429 handling: the status, the header, or a backoff. */
const HANDLES_429 = /(?<![\w.])429(?![\w.])|retry[-_ ]?after|\bback[-_ ]?off|too[-_ ]?many[-_ ]?requests/i

export const makesHttpRequests = (text: string): RegExpExecArray | null => HTTP_CALL.exec(text)
export const handles429 = (text: string): boolean => HANDLES_429.test(text)

/**
 * Invariant 4: scripts or examples that make HTTP requests show how they survive a 429, in that
 * code or in the instructions (SKILL.md, references/). A scanner-detected `network` capability
 * with no recognisable call site still needs the evidence somewhere in the skill.
 */
export function checkHttp429(skill: SkillSource, scan: ScanResult | null, severity: Severity): Diagnostic[] {
  const instructions = skill.files.filter(
    f => (f === skill.skillMd || (f.path.startsWith('references/') && isMarkdown(f.path))) && f.text !== null,
  )
  if (instructions.some(f => handles429(f.text!)))
    return []

  const code = filesUnder(skill, 'scripts', 'examples')
    .map(f => ({ path: f.path, text: f.text }))
    .filter((f): f is { path: string, text: string } => f.text !== null)
  const out: Diagnostic[] = []
  let calls = 0
  for (const { path, text } of code) {
    const call = makesHttpRequests(text)
    if (!call)
      continue
    calls++
    if (handles429(text))
      continue
    out.push(
      diagnostic({
        code: 'quality/http-429',
        severity,
        message:
          `${path} makes HTTP requests (\`${call[0].trim()}\`)`
          + ' but neither it nor the instructions handle HTTP 429',
        file: projectPath(skill, path),
        ...lineIndex(text)(call.index),
        skill: skill.name,
        hint:
          'On 429 Too Many Requests, wait for `Retry-After` (or an exponential backoff with jitter) and retry'
          + ' a bounded number of times; say so in SKILL.md or a reference.',
      }),
    )
  }
  if (calls === 0 && scan?.capabilities.detected.includes('network') && !code.some(f => handles429(f.text))) {
    out.push(
      diagnostic({
        code: 'quality/http-429',
        severity,
        message: 'the skill uses the network but shows no HTTP 429 handling',
        file: projectPath(skill, skill.skillMd.path),
        skill: skill.name,
        hint:
          'Document what to do on 429 Too Many Requests: honour `Retry-After`, back off exponentially,'
          + ' cap the retries.',
      }),
    )
  }
  return out
}
