import { diagnostic } from '../diagnostics'
import type { Diagnostic, Profile, ScanResult, SkillSource } from '../types'
import { isMarkdown, lineIndex, projectPath } from './text'

/** Why a skill counts as a write workload: a detected capability or a non-GET request in its text. */
export interface WriteEvidence {
  what: string
  /** Skill-relative path and 1-based line of the request, null for scanner capabilities. */
  file: string | null
  line: number | null
}

export interface HitlResult {
  diagnostics: Diagnostic[]
  workload: 'read' | 'write'
  requiresApproval: boolean
  evidence: WriteEvidence[]
}

// Requests that change state: an explicit method, a client's post/put/patch/delete, curl/wget options.
const NON_GET: RegExp[] = [
  /\bmethod\s*[:=]\s*["'`](?:POST|PUT|PATCH|DELETE)["'`]/gi,
  /\b(?:requests|httpx|axios|session|aiohttp|got|ky|superagent|http|https)\.(?:post|put|patch|delete)\s*\(/gi,
  /\bwget\b[^\n]{0,500}?\s--(?:post-data|post-file|method=(?:POST|PUT|PATCH|DELETE))\b/gi,
]
const CURL = /\bcurl\b(?:[^\n]*\\\r?\n)*[^\n]*/g
const CURL_WRITE = /(?:^|\s)(?:-X\s*["']?(?:POST|PUT|PATCH|DELETE)\b|--request[\s=]["']?(?:POST|PUT|PATCH|DELETE)\b|(?:-d|--data(?:-raw|-binary|-urlencode|-ascii)?|-F|--form|--json|-T|--upload-file)(?=[\s=]|$))/i

/** Every non-GET request in a text, with its offset. */
export function findWriteRequests(text: string): Array<{ what: string; offset: number }> {
  const found: Array<{ what: string; offset: number }> = []
  for (const pattern of NON_GET) for (const m of text.matchAll(pattern)) found.push({ what: m[0].trim(), offset: m.index })
  for (const m of text.matchAll(CURL)) {
    const opt = CURL_WRITE.exec(m[0])
    if (opt) found.push({ what: `curl ${opt[0].trim()}`, offset: m.index })
  }
  return found.sort((a, b) => a.offset - b.offset)
}

/**
 * HITL gate: `workload: read | write` in the frontmatter must match what the skill does.
 * Writes are filesystem writes and process spawning (scanner) and non-GET requests (found here in
 * scripts/, examples/, SKILL.md and references/). A skill declared `read` that writes is an error
 * in both profiles; an undeclared workload is an error in enterprise, a warning in agentskills.
 * Whatever is declared, a skill with write evidence requires approval: the gate fails closed.
 */
export function checkHitl(skill: SkillSource, scan: ScanResult | null, profile: Profile): HitlResult {
  const evidence: WriteEvidence[] = []
  for (const cap of scan?.capabilities.detected ?? []) {
    if (cap === 'fs:write' || cap === 'process') evidence.push({ what: `${cap} (detected by the scanner)`, file: null, line: null })
  }
  for (const file of skill.files) {
    if (file.text === null) continue
    const relevant = file.path.startsWith('scripts/') || file.path.startsWith('examples/')
      || file === skill.skillMd || (file.path.startsWith('references/') && isMarkdown(file.path))
    if (!relevant) continue
    const requests = findWriteRequests(file.text)
    if (requests.length === 0) continue
    const at = lineIndex(file.text)
    for (const r of requests) evidence.push({ what: r.what, file: file.path, line: at(r.offset).line })
  }

  const declared = skill.frontmatter.workload
  const workload = declared === 'write' ? 'write' : 'read'
  const diagnostics: Diagnostic[] = []
  const writes = evidence.length > 0
  const where = skill.locate('workload')
  const shown = evidence.slice(0, 3).map(e => e.file ? `${e.file}:${e.line} \`${e.what.slice(0, 60)}\`` : e.what).join('; ')
    + (evidence.length > 3 ? `; and ${evidence.length - 3} more` : '')
  const base = { file: projectPath(skill, skill.skillMd.path), line: where?.line ?? null, column: where?.column ?? null, skill: skill.name }

  // The enterprise frontmatter schema already rejects other values; agentskills has no such field.
  if (profile !== 'enterprise' && declared !== undefined && declared !== 'read' && declared !== 'write') {
    diagnostics.push(diagnostic({
      ...base,
      code: 'hitl/invalid-workload',
      severity: 'warning',
      message: `\`workload\` must be \`read\` or \`write\``,
      hint: 'Declare `workload: write` when the skill changes anything (files, processes, remote state), else `workload: read`.',
    }))
  }
  if (writes && declared === 'read') {
    diagnostics.push(diagnostic({
      ...base,
      code: 'hitl/read-with-writes',
      severity: 'error',
      message: `declared \`workload: read\` but the skill writes: ${shown}`,
      hint: 'Declare `workload: write` so agents ask for human approval before using it, or remove the writes.',
    }))
  }
  else if (writes && declared === undefined) {
    diagnostics.push(diagnostic({
      ...base,
      code: 'hitl/undeclared-workload',
      severity: profile === 'enterprise' ? 'error' : 'warning',
      message: `the skill writes (${shown}) but declares no \`workload\``,
      hint: 'Add `workload: write` to the frontmatter: write skills are gated behind human approval.',
    }))
  }
  return { diagnostics, workload, requiresApproval: workload === 'write' || writes, evidence }
}
