import type { ScanResult } from '../../src/core/types'
import type { ScanOptions } from '../../src/scanner/index'
import type { JsFlavor } from '../../src/scanner/types'
import { scanSkill } from '../../src/scanner/index'
import { scanJs } from '../../src/scanner/js/scan-js'
import { DEFAULT_SCANNER, makeSkill } from './make-skill'

export function scan(
  files: Record<string, string | Uint8Array>,
  frontmatter: Record<string, unknown> = {},
  options: Partial<ScanOptions> = {},
): ScanResult {
  return scanSkill(makeSkill(files, frontmatter), { ...DEFAULT_SCANNER, ...options })
}

/** Compact view of scanner findings: `severity rule path:line:column`. */
export function hits(
  files: Record<string, string | Uint8Array>,
  frontmatter: Record<string, unknown> = {},
  options: Partial<ScanOptions> = {},
): string[] {
  // A capability finding stands for every use in its file: one line per use, as the rule found them.
  return scan(files, frontmatter, options).diagnostics.flatMap((d) => {
    const file = d.file === null ? null : d.file.replace('skills/demo/', '')
    return (d.locations ?? [{ line: d.line, column: d.column }])
      .map(at => `${d.severity} ${d.rule ?? d.code} ${file}:${at.line}:${at.column}`)
  })
}

/** Only the findings of one rule. */
export function hitsOf(
  rule: string,
  files: Record<string, string | Uint8Array>,
  frontmatter: Record<string, unknown> = {},
): string[] {
  return hits(files, frontmatter).filter(h => h.split(' ')[1] === rule)
}

/** Every match of a global regex in a text, as `index:match`. */
export function regexHits(re: RegExp, text: string): string[] {
  const out: string[] = []
  re.lastIndex = 0
  for (let m = re.exec(text); m; m = re.exec(text)) out.push(`${m.index}:${m[0]}`)
  return out
}

/** What one rule's AST visitors find in a JS/TS text (the built-in rules' analysis): `node source: message`. */
export function astHits(rule: string, text: string, flavor: JsFlavor = 'js'): string[] {
  const r = scanJs(text, flavor)
  if (!r.ok)
    throw new Error(`not analysed: ${r.reason}`)
  return r.findings.filter(f => f.rule === rule).map(f => `${text.slice(f.start, f.end)}: ${f.message}`)
}

/** A skill whose SKILL.md is a `# x` heading, a blank line, then `lines` (so the first of them is line 3). */
export function skillMd(...lines: string[]): Record<string, string> {
  return { 'SKILL.md': `# x\n\n${lines.join('\n')}\n` }
}
