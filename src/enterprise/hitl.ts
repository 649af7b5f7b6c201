import type { Diagnostic, Profile, ScanResult, SkillSource } from '../core/types'
import { diagnostic } from '../core/diagnostics'
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
// Each pattern comes with a test of characters every match must contain: most files (prose, data)
// fail it after a few indexOf calls and never see the regex.
const NON_GET: Array<{ pattern: RegExp, possible: (text: string) => boolean }> = [
  {
    pattern: /\bmethod\s*[:=]\s*["'`](?:POST|PUT|PATCH|DELETE)["'`]/gi,
    possible: t => (t.includes('"') || t.includes('\'') || t.includes('`')) && methodAssignment(t),
  },
  {
    pattern:
      /\b(?:requests|httpx|axios|session|aiohttp|got|ky|superagent|http|https)\.(?:post|put|patch|delete)\s*\(/gi,
    possible: t => t.includes('(') && methodCall(t),
  },
  {
    pattern: /\bwget\b[^\n]{0,500}?\s--(?:post-data|post-file|method=(?:POST|PUT|PATCH|DELETE))\b/gi,
    possible: t => t.includes('--') && wgetBeforeDashes(t),
  },
]
const CURL = /\bcurl\b(?:[^\n]*\\\r?\n)*[^\n]*/g
// Every write option starts with `-`: a text without one has curl calls, but no writing ones.
const CURL_WRITE_OPTIONS = [
  String.raw`-X\s*["']?(?:POST|PUT|PATCH|DELETE)\b`,
  String.raw`--request[\s=]["']?(?:POST|PUT|PATCH|DELETE)\b`,
  String.raw`(?:-d|--data(?:-raw|-binary|-urlencode|-ascii)?|-F|--form|--json|-T|--upload-file)(?=[\s=]|$)`,
].join('|')
const CURL_WRITE = new RegExp(String.raw`(?:^|\s)(?:${CURL_WRITE_OPTIONS})`, 'i')

/** Whether `text` holds `word` (lowercase ASCII letters) at `at`, in any case, as /i compares them. */
function wordAt(text: string, at: number, word: string): boolean {
  if (at < 0)
    return false
  for (let i = 0; i < word.length; i++) {
    if ((text.charCodeAt(at + i) | 32) !== word.charCodeAt(i))
      return false
  }
  return true
}

/** Whether `.` and then `word` (any case) end at `end`. */
function methodEnds(text: string, end: number, word: string): boolean {
  return text.charCodeAt(end - word.length - 1) === 0x2E && wordAt(text, end - word.length, word)
}

/**
 * Whether some `(` follows `.post`, `.put`, `.patch` or `.delete` (any case) and only whitespace:
 * what a client call needs. Skipping every control, space and non-ASCII character covers `\s`.
 * Calls are everywhere in code: each `(` costs a look at the letter before it (t, h or e: the methods'
 * last letters; branches, measured twice as fast as a table lookup per `(`).
 */
function methodCall(text: string): boolean {
  for (let i = text.indexOf('('); i !== -1; i = text.indexOf('(', i + 1)) {
    let end = i
    let c = text.charCodeAt(end - 1)
    while (end > 0 && (c <= 0x20 || c >= 0x7F)) c = text.charCodeAt(--end - 1)
    c |= 32
    if (
      c === 0x74
        ? methodEnds(text, end, 'post') || methodEnds(text, end, 'put')
        : c === 0x68
          ? methodEnds(text, end, 'patch')
          : c === 0x65 && methodEnds(text, end, 'delete')
    ) {
      return true
    }
  }
  return false
}

/**
 * Whether some `:` or `=` has `method` (any case) and only whitespace before it: what the pattern
 * needs. A case-insensitive regex, even /method/i alone, costs more than the file's other checks.
 */
function methodAssignment(text: string): boolean {
  for (const sign of [':', '=']) {
    for (let i = text.indexOf(sign); i !== -1; i = text.indexOf(sign, i + 1)) {
      let end = i
      for (let c = text.charCodeAt(end - 1); end > 0 && (c <= 0x20 || c >= 0x7F); c = text.charCodeAt(--end - 1));
      if (wordAt(text, end - 6, 'method'))
        return true
    }
  }
  return false
}

/** Whether some `--` has `wget` (any case) before it on its line, within the pattern's reach. */
function wgetBeforeDashes(text: string): boolean {
  let scanned = 0 // every position before this one is known not to start `wget`
  let lineStart = 0
  let newline = text.indexOf('\n')
  for (let i = text.indexOf('--'); i !== -1; i = text.indexOf('--', i + 1)) {
    // Forward only (lastIndexOf per `--` would go quadratic on one long line).
    for (; newline !== -1 && newline < i; newline = text.indexOf('\n', newline + 1)) lineStart = newline + 1
    for (let w = Math.max(lineStart, i - 520, scanned); w + 4 <= i; w++) {
      if (wordAt(text, w, 'wget'))
        return true
    }
    scanned = Math.max(scanned, i - 3)
  }
  return false
}

/** Every non-GET request in a text, with its offset. */
export function findWriteRequests(text: string): Array<{ what: string, offset: number }> {
  const found: Array<{ what: string, offset: number }> = []
  for (const { pattern, possible } of NON_GET) {
    if (possible(text)) {
      for (const m of text.matchAll(pattern)) found.push({ what: m[0].trim(), offset: m.index })
    }
  }
  if (text.includes('-') && text.includes('curl')) {
    for (const m of text.matchAll(CURL)) {
      const opt = CURL_WRITE.exec(m[0])
      if (opt)
        found.push({ what: `curl ${opt[0].trim()}`, offset: m.index })
    }
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
    if (cap === 'fs:write' || cap === 'process')
      evidence.push({ what: `${cap} (detected by the scanner)`, file: null, line: null })
  }
  for (const file of skill.files) {
    const relevant
      = file.path.startsWith('scripts/')
        || file.path.startsWith('examples/')
        || file === skill.skillMd
        || (file.path.startsWith('references/') && isMarkdown(file.path))
    if (!relevant)
      continue
    const text = file.text
    if (text === null)
      continue
    const requests = findWriteRequests(text)
    if (requests.length === 0)
      continue
    const at = lineIndex(text)
    for (const r of requests) evidence.push({ what: r.what, file: file.path, line: at(r.offset).line })
  }

  const declared = skill.frontmatter.workload
  const workload = declared === 'write' ? 'write' : 'read'
  const diagnostics: Diagnostic[] = []
  const writes = evidence.length > 0
  const where = skill.locate('workload')
  const shown
    = evidence
      .slice(0, 3)
      .map(e => (e.file ? `${e.file}:${e.line} \`${e.what.slice(0, 60)}\`` : e.what))
      .join('; ') + (evidence.length > 3 ? `; and ${evidence.length - 3} more` : '')
  const base = {
    file: projectPath(skill, skill.skillMd.path),
    line: where?.line ?? null,
    column: where?.column ?? null,
    skill: skill.name,
  }

  // The enterprise frontmatter schema already rejects other values; agentskills has no such field.
  if (profile !== 'enterprise' && declared !== undefined && declared !== 'read' && declared !== 'write') {
    diagnostics.push(
      diagnostic({
        ...base,
        code: 'hitl/invalid-workload',
        severity: 'warning',
        message: `\`workload\` must be \`read\` or \`write\``,
        hint:
          'Declare `workload: write` when the skill changes anything (files, processes, remote state),'
          + ' else `workload: read`.',
      }),
    )
  }
  if (writes && declared === 'read') {
    diagnostics.push(
      diagnostic({
        ...base,
        code: 'hitl/read-with-writes',
        severity: 'error',
        message: `declared \`workload: read\` but the skill writes: ${shown}`,
        hint: 'Declare `workload: write` so agents ask for human approval before using it, or remove the writes.',
      }),
    )
  }
  else if (writes && declared === undefined) {
    diagnostics.push(
      diagnostic({
        ...base,
        code: 'hitl/undeclared-workload',
        severity: profile === 'enterprise' ? 'error' : 'warning',
        message: `the skill writes (${shown}) but declares no \`workload\``,
        hint: 'Add `workload: write` to the frontmatter: write skills are gated behind human approval.',
      }),
    )
  }
  return { diagnostics, workload, requiresApproval: workload === 'write' || writes, evidence }
}
