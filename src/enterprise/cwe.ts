import type { Diagnostic, Severity, SkillSource } from '../core/types'
import catalog from '../../data/cwe-ids.json'
import { diagnostic } from '../core/diagnostics'
import { lineIndex, projectPath } from './text'

/** The MITRE CWE catalogue the ids come from (data/cwe-ids.json, made by scripts/update-cwe.mjs). */
export const CWE_CATALOG: { version: string, date: string } = { version: catalog.version, date: catalog.date }

const KNOWN = new Set<number>(catalog.ids)
// Ids above the catalogue's highest weakness id may simply be newer than the shipped catalogue.
const NEWEST = Math.max(...catalog.ids.filter(id => id < 2000))

export const isKnownCwe = (id: number): boolean => KNOWN.has(id)

export interface CweMention {
  id: number
  /** The mention as written, e.g. `CWE-79`. */
  text: string
  offset: number
}

const MENTION = /\bCWE-(\d{1,9})\b/gi

/**
 * Whether `text` contains `cwe-` in any case: what /cwe-/i tests, found from the (rare) hyphens
 * with indexOf instead of a case-insensitive scan of every character.
 */
export function mentionsCwe(text: string): boolean {
  for (let i = text.indexOf('-', 3); i !== -1; i = text.indexOf('-', i + 1)) {
    // `| 32` lowercases ASCII letters; /i without `u` folds no other character onto c, w or e.
    if (
      (text.charCodeAt(i - 1) | 32) === 0x65
      && (text.charCodeAt(i - 2) | 32) === 0x77
      && (text.charCodeAt(i - 3) | 32) === 0x63
    ) {
      return true
    }
  }
  return false
}

export function findCweMentions(text: string): CweMention[] {
  if (!mentionsCwe(text))
    return []
  return [...text.matchAll(MENTION)].map(m => ({ id: Number(m[1]), text: m[0], offset: m.index }))
}

const MAX_PER_FILE = 100

/**
 * Invariant 3: every `CWE-NNN` in any text file of the skill is an id of MITRE's catalogue.
 * An id beyond the catalogue's newest stays a warning (it may postdate the shipped list).
 */
export function checkCweMentions(skill: SkillSource, severity: Severity): Diagnostic[] {
  const out: Diagnostic[] = []
  for (const file of skill.files) {
    const text = file.text
    if (text === null || !mentionsCwe(text))
      continue
    let at: ReturnType<typeof lineIndex> | null = null
    let count = 0
    for (const m of findCweMentions(text)) {
      if (KNOWN.has(m.id))
        continue
      if (++count > MAX_PER_FILE)
        continue
      at ??= lineIndex(text)
      const newer = m.id > NEWEST && m.id < 2000
      out.push(
        diagnostic({
          code: 'quality/unknown-cwe',
          severity: newer ? 'warning' : severity,
          message: newer
            ? `${m.text} is not in the CWE ${CWE_CATALOG.version} catalogue (${CWE_CATALOG.date}); it may be newer`
            : `${m.text} is not a CWE id (CWE ${CWE_CATALOG.version} catalogue)`,
          file: projectPath(skill, file.path),
          ...at(m.offset),
          skill: skill.name,
          hint: newer
            ? 'If the id is real, refresh data/cwe-ids.json with scripts/update-cwe.mjs.'
            : 'Check the number at cwe.mitre.org; e.g. CWE-79 (XSS), CWE-89 (SQL injection), CWE-918 (SSRF).',
        }),
      )
    }
    if (count > MAX_PER_FILE) {
      out.push(
        diagnostic({
          code: 'quality/unknown-cwe',
          severity,
          message: `${count - MAX_PER_FILE} more unknown CWE ids in this file are not listed`,
          file: projectPath(skill, file.path),
          skill: skill.name,
        }),
      )
    }
  }
  return out
}
